import {
  characterCount,
  type DayString,
  isCalendarDay,
  MANUAL_IMAGE_MAX_BYTES,
  MANUAL_NOTE_MAX_CHARS,
  MANUAL_STEPS_MAX,
  MANUAL_STEPS_MIN,
  PHOTO_TOO_LARGE_TEXT,
  stepDateOutOfRange,
} from "@charity-steps/shared-types";

/** A refusal as the walker sees it: the toast's title and text. */
export interface FormProblem {
  title: string;
  description: string;
}

export const PROBLEMS = {
  invalidSteps: { title: "Invalid Steps", description: "Please enter a valid number of steps" },
  invalidDate: { title: "Invalid Date", description: "Please choose the day the steps were walked" },
  tooManySteps: { title: "Too Many Steps", description: "Maximum 50,000 steps can be added at once" },
  imageRequired: { title: "Image Required", description: "Please upload an image to verify your steps" },
  invalidFileType: {
    title: "Invalid File Type",
    description: "Please upload an image file (JPG, PNG, etc.)",
  },
  fileTooLarge: { title: "File Too Large", description: PHOTO_TOO_LARGE_TEXT },
  noteTooLong: {
    title: "Note Too Long",
    description: `Please keep the note to ${MANUAL_NOTE_MAX_CHARS} characters`,
  },
} as const satisfies Record<string, FormProblem>;

/**
 * The steps as typed: a whole number, plain or with commas between its thousands ("6,500", as the
 * app writes numbers); null for anything else.
 */
export function stepsTyped(value: string): number | null {
  const text = value.trim();
  if (!/^(?:\d+|[1-9]\d{0,2}(?:,\d{3})+)$/.test(text)) return null;
  return Number(text.replaceAll(",", ""));
}

/** The steps field: a whole number from 1 to 50,000, else the spec's message. */
export function stepsProblem(value: string): FormProblem | null {
  const steps = stepsTyped(value);
  if (steps === null || steps < MANUAL_STEPS_MIN) return PROBLEMS.invalidSteps;
  if (steps > MANUAL_STEPS_MAX) return PROBLEMS.tooManySteps;
  return null;
}

/**
 * The date field: a day from 30 days ago to today (London), as the server will judge it. Checked
 * before the photo, so that a walker who typed a date out of range is not first asked for a photo.
 */
export function dateProblem(date: string, today: DayString): FormProblem | null {
  if (!isCalendarDay(date)) return PROBLEMS.invalidDate;
  const outOfRange = stepDateOutOfRange(date, today);
  return outOfRange ? { title: PROBLEMS.invalidDate.title, description: outOfRange } : null;
}

/** The photo: present, an image, under MANUAL_IMAGE_MAX_BYTES. The server checks the bytes again. */
export function photoProblem(file: File | null): FormProblem | null {
  if (!file) return PROBLEMS.imageRequired;
  if (!file.type.startsWith("image/")) return PROBLEMS.invalidFileType;
  if (file.size > MANUAL_IMAGE_MAX_BYTES) return PROBLEMS.fileTooLarge;
  return null;
}

export function noteProblem(note: string): FormProblem | null {
  return characterCount(note.trim()) > MANUAL_NOTE_MAX_CHARS ? PROBLEMS.noteTooLong : null;
}
