import { characterCount, countOf } from "@charity-steps/shared-types";

/** What a form says, before anything is sent, of a field past its limit (the server's words). */
export function tooLongMessage(label: string, max: number): string {
  return `${label} must be at most ${countOf(max, "character")}.`;
}

/** True when `text` is longer than `max` characters, as the server counts them. */
export function overLimit(text: string, max: number): boolean {
  return characterCount(text) > max;
}

/**
 * How many characters a field has left, under it. A field with a limit shows this instead of a
 * `maxLength`, which would cut pasted text short without a word (and counts an emoji as two).
 * Point the field's `aria-describedby` at `id`; once the text is too long, a screen reader is
 * told so as it happens.
 */
export function CharacterCount({
  id,
  label,
  text,
  max,
}: {
  id: string;
  label: string;
  text: string;
  max: number;
}) {
  const left = max - characterCount(text);
  return (
    <>
      <span
        id={id}
        className={`mt-1 block text-xs font-normal ${left < 0 ? "text-destructive" : "text-muted"}`}
      >
        {left >= 0 ? `${countOf(left, "character")} left` : `${countOf(-left, "character")} too many`}
      </span>
      <span role="status" className="sr-only">
        {left < 0 ? `${label} is ${countOf(-left, "character")} too long.` : ""}
      </span>
    </>
  );
}
