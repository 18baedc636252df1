/** Serbian Cyrillic to the Serbian Latin alphabet, letter for letter (Љ, Њ, Џ give two letters). */
const LATIN: Readonly<Record<string, string>> = {
  А: "A", Б: "B", В: "V", Г: "G", Д: "D", Ђ: "Đ", Е: "E", Ж: "Ž", З: "Z", И: "I", Ј: "J", К: "K", Л: "L", Љ: "Lj",
  М: "M", Н: "N", Њ: "Nj", О: "O", П: "P", Р: "R", С: "S", Т: "T", Ћ: "Ć", У: "U", Ф: "F", Х: "H", Ц: "C", Ч: "Č",
  Џ: "Dž", Ш: "Š",
  а: "a", б: "b", в: "v", г: "g", д: "d", ђ: "đ", е: "e", ж: "ž", з: "z", и: "i", ј: "j", к: "k", л: "l", љ: "lj",
  м: "m", н: "n", њ: "nj", о: "o", п: "p", р: "r", с: "s", т: "t", ћ: "ć", у: "u", ф: "f", х: "h", ц: "c", ч: "č",
  џ: "dž", ш: "š"
}
const SERBIAN_CYRILLIC = new RegExp(`[${Object.keys(LATIN).join("")}]`, "gu")

/**
 * `Беч` -> `Beč`, `Минхен` -> `Minhen`. Letters outside the Serbian alphabet (Russian `ы`, say) are
 * left as they are, so that the script rule then refuses the name rather than show it half-converted.
 */
export const serbianToLatin = (text: string): string => text.replace(SERBIAN_CYRILLIC, (c) => LATIN[c]!)
