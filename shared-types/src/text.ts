import { type TString, type TStringOptions, Type } from "typebox";

/**
 * Control characters (C0 such as NUL and escape, DEL, and C1) have no place in a name, an email,
 * a code or a note, and PostgreSQL cannot store NUL in text at all. Nor have the bidirectional
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): "\u202EAdmin" shows another
 * walker a name written backwards. Right-to-left names need none of them. Nor has half of a
 * character written as two UTF-16 units (an unpaired surrogate, U+D800–U+DFFF: what is left of an
 * emoji cut in two), which neither database can store as sent. Every text field a walker sends is
 * held to one of these two patterns, read as Unicode (the `u` flag, as Ajv reads them, where a
 * whole emoji is one character), so that both databases refuse the same input, with a 400, before
 * anything is stored.
 */
const CONTROL_CHARACTERS = "\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069\\uD800-\\uDFFF";
/** The same, less tab, line feed and carriage return: what a multi-line box may hold. */
const CONTROL_CHARACTERS_BUT_LINE_BREAKS =
  "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069\\uD800-\\uDFFF";

export const SINGLE_LINE_TEXT_PATTERN = `^[^${CONTROL_CHARACTERS}]*$`;
export const MULTI_LINE_TEXT_PATTERN = `^[^${CONTROL_CHARACTERS_BUT_LINE_BREAKS}]*$`;

/** Both patterns, so that a validation message can say what they refuse. */
export const TEXT_PATTERNS: readonly string[] = [SINGLE_LINE_TEXT_PATTERN, MULTI_LINE_TEXT_PATTERN];

/** What a field held to one of these patterns is told when it holds a control character. */
export const CONTROL_CHARACTERS_MESSAGE = "must not contain control characters";

/*
 * A page loads the modules of shared-types it reads, and the bundler keeps every statement in them
 * it cannot prove free of side effects: a request schema the page never uses stays, and TypeBox's
 * builder with it. So a schema is built only from TypeBox's calls (pure to the bundler, see the web
 * app's build settings), from helpers marked as having no side effects, and without spreads (which
 * might run code). The bundler honours that mark only within a module: a call to one of these
 * helpers from another module carries its own pure mark.
 */

/** A one-line text field (a name, an email, a code): no control characters at all. */
/* @__NO_SIDE_EFFECTS__ */
export function SingleLineText(options: TStringOptions = {}): TString {
  return Type.String({ ...options, pattern: SINGLE_LINE_TEXT_PATTERN });
}

/** A text field typed in a multi-line box (a note, a description): line breaks and tabs allowed. */
/* @__NO_SIDE_EFFECTS__ */
export function MultiLineText(options: TStringOptions = {}): TString {
  return Type.String({ ...options, pattern: MULTI_LINE_TEXT_PATTERN });
}

const singleLine = new RegExp(SINGLE_LINE_TEXT_PATTERN, "u");
const multiLine = new RegExp(MULTI_LINE_TEXT_PATTERN, "u");

const anyControl = new RegExp(`[${CONTROL_CHARACTERS}]`, "gu");

/** `text` with every character the patterns above refuse taken out: for text from elsewhere (an identity provider). */
export function withoutControlCharacters(text: string): string {
  return text.replace(anyControl, "");
}

/** True when `text` holds no control character (line breaks and tabs too when `lineBreaks`). */
export function isPlainText(text: string, { lineBreaks = false } = {}): boolean {
  return (lineBreaks ? multiLine : singleLine).test(text);
}

/**
 * A text's length as the server's schemas count it: in characters (code points), so that a name
 * of walking figures is as long as it looks, where a browser's `maxLength` counts each as two.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Made on first use, not on import: a page that shows no initials (the landing page) starts no
 * `Intl` work, and a browser without `Intl.Segmenter` (Firefox before 125) loses only the joining of
 * a family emoji or an accent typed as two characters, not the page.
 */
let graphemes: Intl.Segmenter | null | undefined;

/**
 * The first character of a trimmed text as a reader sees it (a grapheme: an emoji with its joiners
 * or a letter with its accent), for initials: `text[0]` would cut an emoji in half.
 */
export function firstCharacter(text: string): string {
  if (graphemes === undefined)
    graphemes =
      typeof Intl.Segmenter === "function" ? new Intl.Segmenter("en", { granularity: "grapheme" }) : null;
  const trimmed = text.trim();
  if (graphemes === null) return [...trimmed][0] ?? "";
  const [first] = graphemes.segment(trimmed);
  return first?.segment ?? "";
}

/** A sentence's words begun with a capital: "the weekly summary" → "The weekly summary". */
export function sentenceCase(text: string): string {
  const first = firstCharacter(text);
  return `${first.toUpperCase()}${text.trimStart().slice(first.length)}`;
}

/**
 * `text` that a walker or an operator typed, set apart from the sentence around it (Unicode's first
 * strong isolate and pop directional isolate). A name in Arabic or Hebrew then keeps to its own
 * place: a phone's notification or a mail reader that takes a text's direction from its first
 * letter would otherwise show "سارة joined Canal Walkers." as a right-to-left sentence, its English
 * words reordered, and a number after the name could join it. Walkers cannot type these two
 * characters themselves (they are control characters above), so one name cannot undo another's.
 */
export function isolated(text: string): string {
  return `\u2068${text}\u2069`;
}

/** The Hangul fillers: letters that render as blank space in most fonts. */
const HANGUL_FILLERS = "\\u115F\\u1160\\u3164\\uFFA0";

/**
 * Space, or a character that shows nothing on its own: the zero-width space and joiners, the word
 * joiner, the left-to-right, right-to-left and Arabic letter marks, the soft hyphen, the Mongolian
 * vowel separator, and the Hangul fillers.
 */
const invisibleCharacter = /* @__PURE__ */ new RegExp(
  `^[\\s\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u2060${HANGUL_FILLERS}]$`,
  "u",
);
const invisible = (character: string) => invisibleCharacter.test(character);

/**
 * `text` without the space and invisible characters at its ends: a name of a zero-width space alone
 * is as empty as one of spaces, and is refused alike. Walked from each end (each of these characters
 * is one UTF-16 unit), not matched by one pattern, which backtracks at every inner space.
 */
export function trimInvisible(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && invisible(text.charAt(start))) start++;
  while (end > start && invisible(text.charAt(end - 1))) end--;
  return text.slice(start, end);
}

/** The longest email address taken (RFC 5321's longest path, less its angle brackets). */
export const EMAIL_MAX_CHARS = 254;

/**
 * One @ with text either side and a dot after it, and no space or invisible formatting character
 * (a zero-width space or a direction mark inside makes a look-alike of someone else's address).
 */
const EMAIL_PART = `[^\\s@\\p{Cf}${HANGUL_FILLERS}]+`;
const emailAddress = /* @__PURE__ */ new RegExp(`^${EMAIL_PART}@${EMAIL_PART}\\.${EMAIL_PART}$`, "u");

/** True for text shaped like an email address, no longer than `EMAIL_MAX_CHARS`. */
export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_CHARS && emailAddress.test(text);
}
