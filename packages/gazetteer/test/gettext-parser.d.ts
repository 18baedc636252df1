// What the tests read of gettext-parser, which ships no types.
declare module "gettext-parser" {
  export interface MoEntry {
    readonly msgid: string
    readonly msgstr: ReadonlyArray<string>
  }
  export const mo: {
    parse(buffer: Uint8Array): { readonly translations: Readonly<Record<string, Readonly<Record<string, MoEntry>>>> }
  }
}
