export type Script = "Latin" | "Cyrillic"

const RULES: Readonly<Record<Script, { readonly some: RegExp; readonly other: RegExp }>> = {
  Latin: { some: /(?=\p{L})\p{Script_Extensions=Latin}/u, other: /[^\P{L}\p{Script_Extensions=Latin}]/u },
  Cyrillic: { some: /(?=\p{L})\p{Script_Extensions=Cyrillic}/u, other: /[^\P{L}\p{Script_Extensions=Cyrillic}]/u }
}

/**
 * The script rule of a locale's city names: at least one letter of `script`, and no letter of
 * another. Marks, digits, spaces and punctuation are neutral. A letter is of a script when Unicode
 * says that script uses it (its Script_Extensions): the modifier apostrophe `ʼ` of Ukrainian
 * counts as Cyrillic (and Latin), while `ʻ` (U+02BB), a letter Unicode gives no script, counts as
 * none, so German's `Qoʻqon` is no Latin name. `Saint-Étienne` is Latin, `Камʼянець-Подільський`
 * Cyrillic, and a blank entry or `Санкт-Peterburg` neither.
 */
export const inScript = (text: string, script: Script): boolean => RULES[script].some.test(text) && !RULES[script].other.test(text)
