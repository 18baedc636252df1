import { type Html, html } from "./html.js"

/** The mobile apps that open the website's links; each platform optional. */
export interface AppLinks {
  /** An Android package and the SHA-256 fingerprints of the certificates it is signed with. */
  readonly android?: { readonly packageName: string; readonly certFingerprints: ReadonlyArray<string> } | undefined
  /** An iOS app as `TEAMID.bundle.id`. */
  readonly ios?: { readonly appId: string } | undefined
}

/** The pages an app may open in place of the website: the searches and the trips. */
const APP_PATHS = ["/search", "/search/*", "/trip/*"]

/** `/.well-known/assetlinks.json`: Android's Digital Asset Links statement for the app, if any. */
export const assetLinks = (apps: AppLinks): ReadonlyArray<unknown> | undefined =>
  apps.android === undefined
    ? undefined
    : [
        {
          relation: ["delegate_permission/common.handle_all_urls"],
          target: { namespace: "android_app", package_name: apps.android.packageName, sha256_cert_fingerprints: apps.android.certFingerprints }
        }
      ]

/**
 * `/.well-known/apple-app-site-association`: the universal links of the app, if any, in both the
 * current (`appIDs`, `components`) and the older (`appID`, `paths`) forms, which iOS 12 reads.
 */
export const appleAppSiteAssociation = (apps: AppLinks): unknown =>
  apps.ios === undefined
    ? undefined
    : {
        applinks: {
          apps: [],
          details: [
            {
              appIDs: [apps.ios.appId],
              components: APP_PATHS.map((path) => ({ "/": path })),
              appID: apps.ios.appId,
              paths: APP_PATHS
            }
          ]
        }
      }

/**
 * App Links tags of a page: the configured apps may open `url` (the page's canonical address,
 * which their verified links cover) in place of the browser; none without an app.
 */
export const appLinkTags = (apps: AppLinks, url: string): Html =>
  html`${
    apps.android !== undefined
      ? html`<meta property="al:android:package" content="${apps.android.packageName}"><meta property="al:android:url" content="${url}">`
      : ""
  }${apps.ios !== undefined ? html`<meta property="al:ios:url" content="${url}">` : ""}${
    apps.android !== undefined || apps.ios !== undefined ? html`<meta property="al:web:url" content="${url}">` : ""
  }`
