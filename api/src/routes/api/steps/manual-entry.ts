import { createHash } from "node:crypto";
import {
  DAILY_STEP_MAX,
  type DayString,
  ErrorResponse,
  formatDay,
  formatNumber,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_KEY_RULE,
  londonDay,
  MANUAL_ENTRIES_PER_DAY_MAX,
  MANUAL_IMAGE_MAX_BYTES,
  MANUAL_NOTE_MAX_CHARS,
  MANUAL_PHOTO_BYTES_PER_DAY_MAX,
  MANUAL_STEPS_MAX,
  MANUAL_STEPS_MIN,
  ManualEntryFields,
  ManualEntryResponse,
} from "@charity-steps/shared-types";
import fastifyMultipart from "@fastify/multipart";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { signedInUser } from "../../../auth/sessions.js";
import { AppError, BadRequestError, UnprocessableError } from "../../../errors.js";
import { PhotosBusyError, type ProofPhoto, prepareProofPhoto } from "../../../images/proof-photo.js";
import { carriesBody } from "../../../plugins/request-bodies.js";
import { notAField } from "../../../plugins/validation-messages.js";
import type { ManualEntryOutcome, ManualEntryRefusal } from "../../../repositories/manual-entries.js";
import { acceptedStepDate } from "./counter-reading.js";

export const MANUAL_MESSAGES = {
  invalidSteps: "Please enter a valid number of steps (a whole number above 0).",
  tooManySteps: `Maximum ${formatNumber(MANUAL_STEPS_MAX)} steps can be added at once.`,
  noteTooLong: `The note can be at most ${MANUAL_NOTE_MAX_CHARS} characters.`,
  imageRequired: "Please upload an image to verify your steps.",
  keyRequired:
    "The Idempotency-Key header is required: a new random id for each entry, the same one when it is sent again.",
  keyReused: "This Idempotency-Key was already used for a different entry. Use a new key for a new entry.",
  malformedForm: "The form could not be read: it is incomplete or not valid multipart/form-data.",
  notAForm:
    "Send the entry as a form (multipart/form-data): steps, date and an optional note as text, and the photo as justificationImage.",
  sentTwice: (field: string) => `${field} was sent more than once: send each field once.`,
  fileForText: (field: string) => `${field} must be text, not a file.`,
  tooManyEntries: `You can add steps with a photo at most ${MANUAL_ENTRIES_PER_DAY_MAX} times a day. Please try again tomorrow.`,
  tooManyPhotoBytes: `Your photos today have reached the daily limit of ${MANUAL_PHOTO_BYTES_PER_DAY_MAX / (1024 * 1024)}MB. Please try again tomorrow, or send a smaller photo.`,
  dayFull: (date: DayString, room: number) =>
    room === 0
      ? `${formatDay(date)} already counts ${formatNumber(DAILY_STEP_MAX)} steps, the most a day can count: no more steps can be added for it.`
      : `That would take ${formatDay(date)} past ${formatNumber(DAILY_STEP_MAX)} steps, the most a day can count: you can add at most ${formatNumber(room)} more steps for it.`,
} as const;

/** The refusal a walker reads, with its status: a full day is the entry's fault, a daily limit the walker's pace. */
function refusalError(refusal: ManualEntryRefusal, date: string): AppError {
  switch (refusal.kind) {
    case "day-full":
      return new BadRequestError(MANUAL_MESSAGES.dayFull(date, refusal.room));
    case "too-many-entries":
      return new AppError(429, MANUAL_MESSAGES.tooManyEntries);
    case "too-many-photo-bytes":
      return new AppError(429, MANUAL_MESSAGES.tooManyPhotoBytes);
  }
}

const ManualEntryHeaders = Type.Object({
  [IDEMPOTENCY_KEY_HEADER]: Type.Optional(
    Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN, errorMessage: IDEMPOTENCY_KEY_RULE }),
  ),
});

/**
 * `POST /api/steps/add-manual-verified`: steps with a photo as proof, as
 * multipart form data. Everything is checked before anything is stored.
 */
export const manualEntryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Multipart only here, with limits that stop an oversize photo or form while it is still arriving.
  await app.register(fastifyMultipart, {
    // Two files, so that a second one is told by name what is wrong with it: readForm refuses it
    // before reading a byte of it, so no more than one photo is ever held.
    limits: { fileSize: MANUAL_IMAGE_MAX_BYTES, files: 2, fields: 8, parts: 10, fieldSize: 8 * 1024 },
  });

  app.post(
    "/api/steps/add-manual-verified",
    {
      // The form's text fields and its photo become the body, which the schema then validates.
      preValidation: async (request) => {
        // A photo comes only in a form: any other body (JSON, say) is of a type this route does not take.
        if (!request.isMultipart()) {
          throw new AppError(carriesBody(request) ? 415 : 400, MANUAL_MESSAGES.notAForm);
        }
        // Validated next, against the schema below.
        request.body = (await readForm(request)) as typeof request.body;
      },
      schema: {
        consumes: ["multipart/form-data"],
        headers: ManualEntryHeaders,
        body: ManualEntryFields,
        response: {
          201: ManualEntryResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          413: ErrorResponse,
          415: ErrorResponse,
          422: ErrorResponse,
          429: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const idempotencyKey = request.headers[IDEMPOTENCY_KEY_HEADER];
      if (idempotencyKey === undefined) throw new BadRequestError(MANUAL_MESSAGES.keyRequired);
      const { steps: stepsText, date: dateText, note: rawNote = "", justificationImage } = request.body;

      if (!/^\s*\d+\s*$/.test(stepsText)) throw new BadRequestError(MANUAL_MESSAGES.invalidSteps);
      const steps = Number(stepsText);
      if (steps < MANUAL_STEPS_MIN) throw new BadRequestError(MANUAL_MESSAGES.invalidSteps);
      if (steps > MANUAL_STEPS_MAX) throw new BadRequestError(MANUAL_MESSAGES.tooManySteps);
      const note = rawNote.trim();
      if (note.length > MANUAL_NOTE_MAX_CHARS) throw new BadRequestError(MANUAL_MESSAGES.noteTooLong);
      if (!Buffer.isBuffer(justificationImage)) throw new BadRequestError(MANUAL_MESSAGES.imageRequired);
      const day = dateText.trim();

      // A replay is recognised by what it asks for: the same day, steps, note and photo bytes.
      const requestHash = createHash("sha256")
        .update(JSON.stringify({ day, steps, note }))
        .update(justificationImage)
        .digest("base64url");
      const input = { userId: user.id, idempotencyKey, requestHash, day, steps, note };
      const addNew = async (): Promise<ManualEntryOutcome> => {
        const accepted = { ...input, day: acceptedStepDate(day) };
        // Refused before the photo is processed, so a refused entry costs no image work.
        const refusal = await app.repositories.manualEntries.refusal(accepted, 0);
        if (refusal) return refusal;
        let photo: ProofPhoto;
        try {
          photo = await prepareProofPhoto(justificationImage);
        } catch (error) {
          if (error instanceof PhotosBusyError) reply.header("retry-after", String(error.retryAfterSeconds));
          throw error;
        }
        const added = await app.repositories.manualEntries.add({ ...accepted, photo });
        app.services.badges.soon(user.id, londonDay, [accepted.day]);
        return added;
      };
      // An earlier answer is returned even when its date has since left the 30-day window, or the
      // walker has since reached a limit.
      const outcome = (await app.repositories.manualEntries.findReplay(input)) ?? (await addNew());
      if (outcome.kind === "key-reused") throw new UnprocessableError(MANUAL_MESSAGES.keyReused);
      if ("body" in outcome) return reply.status(201).send(outcome.body);
      throw refusalError(outcome, day);
    },
  );
};

/** The form's fields this route reads, each sent once; only the photo is a file. */
const FORM_IMAGE_FIELD = "justificationImage";
const FORM_TEXT_FIELDS: ReadonlySet<string> = new Set(
  Object.keys(ManualEntryFields.properties).filter((field) => field !== FORM_IMAGE_FIELD),
);

/**
 * The form as key and value (a Buffer for a file, an array for a repeated field the route does not
 * read, which the schema then refuses by name).
 */
async function readForm(request: FastifyRequest): Promise<Record<string, unknown>> {
  const fields = new Map<string, unknown>();
  try {
    for await (const part of request.parts()) {
      const known = FORM_TEXT_FIELDS.has(part.fieldname) || part.fieldname === FORM_IMAGE_FIELD;
      if (known && fields.has(part.fieldname))
        throw new BadRequestError(MANUAL_MESSAGES.sentTwice(part.fieldname));
      if (part.type === "file" && FORM_TEXT_FIELDS.has(part.fieldname)) {
        throw new BadRequestError(MANUAL_MESSAGES.fileForText(part.fieldname));
      }
      if (part.type === "file" && !known) throw new BadRequestError(notAField(part.fieldname));
      const value = part.type === "file" ? await part.toBuffer() : part.value;
      const earlier = fields.get(part.fieldname);
      fields.set(part.fieldname, earlier === undefined ? value : [earlier, value].flat());
    }
  } catch (error) {
    // The library's own refusals (too large, too many parts) carry a status; the parser's do not.
    if (error instanceof Error && "statusCode" in error) throw error;
    throw new BadRequestError(MANUAL_MESSAGES.malformedForm);
  }
  return Object.fromEntries(fields);
}
