import {
  MANUAL_IMAGE_MAX_BYTES,
  MANUAL_NOTE_MAX_CHARS,
  MANUAL_STEPS_MAX,
  MANUAL_STEPS_MIN,
  PHOTO_TOO_LARGE_TEXT,
} from "@charity-steps/shared-types";

/** A refusal as the walker sees it: the toast's title and text. */
export interface FormProblem {
  title: string;
  description: string;
}

export const PROBLEMS = {
  invalidSteps: { title: "Invalid Steps", description: "Please enter a valid number of steps" },
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

/** The steps field: a whole number from 1 to 50,000, else the spec's message. */
export function stepsProblem(value: string): FormProblem | null {
  const text = value.trim();
  if (!/^\d+$/.test(text) || Number(text) < MANUAL_STEPS_MIN) return PROBLEMS.invalidSteps;
  if (Number(text) > MANUAL_STEPS_MAX) return PROBLEMS.tooManySteps;
  return null;
}

/** The photo: present, an image, under MANUAL_IMAGE_MAX_BYTES. The server checks the bytes again. */
export function photoProblem(file: File | null): FormProblem | null {
  if (!file) return PROBLEMS.imageRequired;
  if (!file.type.startsWith("image/")) return PROBLEMS.invalidFileType;
  if (file.size > MANUAL_IMAGE_MAX_BYTES) return PROBLEMS.fileTooLarge;
  return null;
}

export function noteProblem(note: string): FormProblem | null {
  return note.trim().length > MANUAL_NOTE_MAX_CHARS ? PROBLEMS.noteTooLong : null;
}
