import { type Static, Type } from "typebox";
import { DAILY_STEP_MAX } from "./constants.js";
import { StepDate } from "./steps.js";
import { SingleLineText } from "./text.js";

/**
 * Apple Health has no web API: an iPhone Shortcut reads the day's steps from Health and sends them
 * here with a step-import key (`Authorization: Bearer <key>`). The walker creates and removes keys
 * on the Account page, with their session.
 */
export const APPLE_HEALTH_IMPORT_PATH = "/api/health/apple-health";
export const HEALTH_KEYS_PATH = "/api/health/keys";

/** Live keys one walker may hold at once: one per device with room to replace one. */
export const MAX_STEP_IMPORT_KEYS = 5;
/** Imports one key may send in a minute; a Shortcut sends one a day, so this only stops a runaway. */
export const IMPORT_CALLS_PER_MINUTE = 60;
/** Days one import may carry: a month of catching up. */
export const MAX_IMPORT_DAYS = 31;
export const STEP_IMPORT_KEY_NAME_MAX_CHARS = 60;

/** The scheme a key is sent with on the import route. */
export const STEP_IMPORT_KEY_SCHEME = "Bearer";
/** Every key starts with this, so a walker (or a secret scanner) can tell what it is. */
export const STEP_IMPORT_KEY_PREFIX = "csk_";

export const CreateStepImportKeyRequest = Type.Object(
  {
    /** What the walker calls the device the key is for ("Ana's iPhone"). */
    name: /* @__PURE__ */ SingleLineText({ minLength: 1, maxLength: STEP_IMPORT_KEY_NAME_MAX_CHARS }),
  },
  { additionalProperties: false },
);
export type CreateStepImportKeyRequest = Static<typeof CreateStepImportKeyRequest>;

export const StepImportKey = Type.Object({
  id: Type.String({ format: "uuid" }),
  name: Type.String(),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
  lastUsedAt: Type.Union([Type.String({ description: "ISO 8601 timestamp" }), Type.Null()]),
});
export type StepImportKey = Static<typeof StepImportKey>;

/** A new key: the only answer that carries the secret; the server keeps only its hash. */
export const CreatedStepImportKey = Type.Object({
  id: Type.String({ format: "uuid" }),
  name: Type.String(),
  key: Type.String({ description: "The secret, shown once: paste it into the Shortcut." }),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
});
export type CreatedStepImportKey = Static<typeof CreatedStepImportKey>;

export const StepImportKeyList = Type.Array(StepImportKey);
export type StepImportKeyList = Static<typeof StepImportKeyList>;

export const StepImportKeyParams = Type.Object({ id: Type.String({ format: "uuid" }) });
export type StepImportKeyParams = Static<typeof StepImportKeyParams>;

/**
 * A day's count as Shortcuts sends it: a whole number, or text of digits (a Shortcuts "Text"
 * field sends strings; a Health sum may read "8234.0"). The route turns it into a whole number
 * and holds it to 0–50,000.
 */
export const ImportedStepCount = Type.Union(
  [
    Type.Integer({ minimum: 0, maximum: DAILY_STEP_MAX }),
    Type.String({ pattern: "^\\s*\\d{1,9}(\\.0*)?\\s*$", maxLength: 32 }),
  ],
  { description: 'Whole number of steps, 0–50,000; a string of digits ("8234", "8234.0") is accepted' },
);
export type ImportedStepCount = Static<typeof ImportedStepCount>;

export const ImportedStepDay = Type.Object(
  { date: StepDate, steps: ImportedStepCount },
  { additionalProperties: false },
);
export type ImportedStepDay = Static<typeof ImportedStepDay>;

/**
 * Either one day (`steps`, with `date` left out meaning London today) or several (`days`, each date
 * once), never both.
 */
export const AppleHealthImportRequest = Type.Object(
  {
    date: Type.Optional(StepDate),
    steps: Type.Optional(ImportedStepCount),
    days: Type.Optional(Type.Array(ImportedStepDay, { minItems: 1, maxItems: MAX_IMPORT_DAYS })),
  },
  {
    additionalProperties: false,
    description: "Either {steps, date?} (no date: London today) or {days: [{date, steps}, …]} (1–31 days)",
  },
);
export type AppleHealthImportRequest = Static<typeof AppleHealthImportRequest>;

export const AppleHealthImportResponse = Type.Object({
  days: Type.Array(
    Type.Object({
      date: StepDate,
      /** The Apple Health count the server holds for the day: the larger of this and what it had. */
      steps: Type.Integer(),
      /** The walker's total for the day, every source together. */
      daySteps: Type.Integer(),
    }),
  ),
  todaySteps: Type.Integer(),
  monthlySteps: Type.Integer(),
});
export type AppleHealthImportResponse = Static<typeof AppleHealthImportResponse>;

/** What an import with a key that is wrong (removed, or not pasted whole) is told; the guide quotes it. */
export const STEP_IMPORT_KEY_NOT_VALID_MESSAGE =
  "This step-import key is not valid: it was removed, or not pasted whole. Create a new key on the Account page (a key is shown only once) and paste it into the shortcut.";
