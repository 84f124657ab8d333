import indefinite from "indefinite";

/**
 * "a" or "an" before a word or a whole number, by how it is read aloud: "an Eco prize", "a Unicorn
 * prize", "an MBE", "an 8-day streak", "an 11-day streak", "a 100-day streak", "an 18,000-step day".
 * The `indefinite` package knows the words whose first letter misleads ("hour", "European",
 * "one-off") and reads short acronyms letter by letter; a number is read from its first group of
 * digits (1,100 is "one thousand one hundred").
 */
export function articleFor(wordOrCount: string | number): "a" | "an" {
  if (typeof wordOrCount === "number") {
    if (!Number.isFinite(wordOrCount)) return "a";
    return indefinite(Math.floor(Math.abs(wordOrCount)), { articleOnly: true }) === "an" ? "an" : "a";
  }
  const word = wordOrCount.trim();
  if (word === "") return "a";
  // indefinite reads a word in capitals letter by letter, as an acronym ("an MBE"). Past three
  // letters such a word is likelier a name an operator typed in capitals ("a SILVER prize").
  const first = word.split(/[\s'-]/)[0] ?? "";
  const caseInsensitive = first.length > 3 && /^[A-Z]+$/.test(first);
  return indefinite(word, { articleOnly: true, caseInsensitive }) === "an" ? "an" : "a";
}
