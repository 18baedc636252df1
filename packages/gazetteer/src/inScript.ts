export type Script = "Latin" | "Cyrillic"

const RULES: Readonly<Record<Script, { readonly some: RegExp; readonly other: RegExp }>> = {
  Latin: { some: /(?=\p{L})\p{Script=Latin}/u, other: /[^\P{L}\p{Script=Latin}\p{Script=Common}]/u },
  Cyrillic: { some: /(?=\p{L})\p{Script=Cyrillic}/u, other: /[^\P{L}\p{Script=Cyrillic}\p{Script=Common}]/u }
}

/**
 * The script rule of a locale's city names: at least one letter of `script`, and no letter of
 * another. Marks, digits, spaces and punctuation are neutral, and so are the letters of no script
 * (the modifier apostrophe `ʼ` of Ukrainian names), so `Saint-Étienne` is Latin and
 * `Камʼянець-Подільський` Cyrillic, while a blank entry or `Санкт-Peterburg` is neither.
 */
export const inScript = (text: string, script: Script): boolean => RULES[script].some.test(text) && !RULES[script].other.test(text)
