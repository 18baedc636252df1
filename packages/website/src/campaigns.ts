import { Counter, type Registry } from "prom-client"

/** Parameters that say where a visitor came from: accepted on every page, never part of its address. */
export const isTrackingParameter = (name: string): boolean => name === "svc_cmkt" || name.startsWith("utm_")

/** Distinct campaign names a process counts under their own label; later ones count as `other`. */
export const MAX_CAMPAIGNS = 50

/** Longest campaign name kept in a label; longer ones are cut. */
const MAX_NAME = 64

/** The website's pages, as the `page` label names them. */
export type PageName = "search" | "trip" | "developers" | "errors"

/**
 * The campaign a request names: `svc_cmkt` (the apps' own parameter), else `utm_campaign`, else
 * `unnamed` when it carries some other non-empty `utm_*`; none without any of them.
 */
export const campaignOf = (params: ReadonlyArray<readonly [string, string]>): string | undefined => {
  const value = (name: string) => params.find(([n, v]) => n === name && v.trim() !== "")?.[1].trim()
  const named = value("svc_cmkt") ?? value("utm_campaign")
  if (named !== undefined) return named.slice(0, MAX_NAME)
  return params.some(([n, v]) => n.startsWith("utm_") && v.trim() !== "") ? "unnamed" : undefined
}

/**
 * Page views per campaign, in the app's metrics registry. The campaign names come from the
 * visitors' URLs: the first `MAX_CAMPAIGNS` names seen get a series each and the rest share
 * `other`, so that a crawler inventing names cannot grow the registry without bound.
 */
export class CampaignCounter {
  private readonly seen = new Set<string>()
  private readonly visits: Counter<"campaign" | "page"> | undefined

  constructor(registry: Registry | undefined, private readonly max = MAX_CAMPAIGNS) {
    this.visits =
      registry === undefined
        ? undefined
        : new Counter({
            name: "tripsearch_website_campaign_visits_total",
            help: `Website pages opened with svc_cmkt or utm_* parameters, by campaign (the first ${max} names seen, then other) and page`,
            labelNames: ["campaign", "page"],
            registers: [registry]
          })
  }

  /** The label the campaign is counted under: its name while there is room, else `other`. */
  labelOf(campaign: string): string {
    if (this.seen.has(campaign)) return campaign
    if (this.seen.size >= this.max || campaign === "other") return "other"
    this.seen.add(campaign)
    return campaign
  }

  /** Counts one page view of a campaign; returns the label it was counted under. */
  count(campaign: string, page: PageName): string {
    const label = this.labelOf(campaign)
    this.visits?.inc({ campaign: label, page })
    return label
  }
}
