import {
  APPLE_HEALTH_IMPORT_PATH,
  type AppleHealthImportRequest,
  AppleHealthImportRequest as AppleHealthImportRequestSchema,
  type AppleHealthImportResponse,
  AppleHealthImportResponse as AppleHealthImportResponseSchema,
  CreatedStepImportKey,
  CreateStepImportKeyRequest,
  DAILY_STEP_MAX,
  type DayString,
  ErrorResponse,
  formatNumber,
  HEALTH_KEYS_PATH,
  IMPORT_CALLS_PER_MINUTE,
  type ImportedStepCount,
  londonDay,
  MAX_STEP_IMPORT_KEYS,
  NoContent,
  STEP_IMPORT_KEY_NOT_VALID_MESSAGE,
  STEP_IMPORT_KEY_SCHEME,
  StepImportKeyList,
  StepImportKeyParams,
  type StepImportKey as StepImportKeyType,
  trimInvisible,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { networkOf } from "../../../auth/provider/throttle.js";
import { signedInUser } from "../../../auth/sessions.js";
import {
  AppError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  UnauthorizedError,
} from "../../../errors.js";
import {
  BAD_KEY_CALLS_PER_MINUTE,
  type KeyHolder,
  type StepImportKeyRow,
} from "../../../repositories/step-import-keys.js";
import { acceptedStepDate, counterReading } from "../steps/counter-reading.js";

export const APPLE_HEALTH_MESSAGES = {
  keyRequired: "This address needs a step-import key: create one on the Account page.",
  keyNotValid: STEP_IMPORT_KEY_NOT_VALID_MESSAGE,
  tooManyKeys: `You already have ${MAX_STEP_IMPORT_KEYS} step-import keys: remove one you no longer use first.`,
  keyNotFound: "This step-import key does not exist: it may have been removed already.",
  tooManyCalls: (seconds: number) =>
    `This step-import key has sent more than ${IMPORT_CALLS_PER_MINUTE} imports in a minute. Please wait ${seconds} second${seconds === 1 ? "" : "s"} and try again.`,
  tooManyBadKeys: (seconds: number) =>
    `Too many imports from this address with a step-import key that does not work. Please wait ${seconds} second${seconds === 1 ? "" : "s"} and try again.`,
  bothForms: "Send either steps (with an optional date) or days, not both.",
  noSteps: "steps is required (or days, to send several days at once).",
  repeatedDate: (date: string) => `days has ${date} more than once: send each day once.`,
} as const;

const APPLE_HEALTH_SOURCE = "apple_health";

declare module "fastify" {
  interface FastifyRequest {
    /** The key an import came with, and its walker; set by the import route's key check. */
    stepImportKey: KeyHolder | null;
  }
}

/** The key in `Authorization: Bearer <key>`, or undefined when the header holds none. */
function bearerKey(header: string | undefined): string | undefined {
  const match = /^(\S+) +(\S+) *$/.exec(header ?? "");
  if (!match || match[1]?.toLowerCase() !== STEP_IMPORT_KEY_SCHEME.toLowerCase()) return undefined;
  return match[2];
}

function tooManyRequests(reply: FastifyReply, waitMs: number, message: (seconds: number) => string) {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  reply.header("retry-after", String(seconds));
  return new AppError(429, message(seconds));
}

function keyView(row: StepImportKeyRow): StepImportKeyType {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}

/**
 * A count as a Shortcut sends it (a number, or text such as "8234" or "8234.0") as a whole
 * number of steps; the schema has already refused anything but digits with a zero fraction.
 */
function stepCount(value: ImportedStepCount, field: string): number {
  const steps = typeof value === "number" ? value : Number(value.trim());
  if (!Number.isInteger(steps) || steps < 0) throw new BadRequestError(`${field} must be a whole number.`);
  if (steps > DAILY_STEP_MAX) {
    throw new BadRequestError(`${field} must be at most ${formatNumber(DAILY_STEP_MAX)}.`);
  }
  return steps;
}

/**
 * Every day the import carries, checked before any is recorded: one form or the other, each date
 * once, each a calendar day in the window steps may be recorded for (400 or 422 otherwise).
 */
function importedDays(body: AppleHealthImportRequest, now: number): { date: DayString; steps: number }[] {
  if (body.days !== undefined) {
    if (body.steps !== undefined || body.date !== undefined)
      throw new BadRequestError(APPLE_HEALTH_MESSAGES.bothForms);
    const seen = new Set<string>();
    for (const day of body.days) {
      if (seen.has(day.date)) throw new BadRequestError(APPLE_HEALTH_MESSAGES.repeatedDate(day.date));
      seen.add(day.date);
    }
    return body.days.map((day, index) => ({
      date: acceptedStepDate(day.date, now),
      steps: stepCount(day.steps, `days.${index}.steps`),
    }));
  }
  if (body.steps === undefined) throw new BadRequestError(APPLE_HEALTH_MESSAGES.noSteps);
  // No date: the London day the import arrives on, so that a Shortcut needs no date formatting.
  const date = body.date === undefined ? londonDay(now) : acceptedStepDate(body.date, now);
  return [{ date, steps: stepCount(body.steps, "steps") }];
}

/**
 * Apple Health through the iPhone's Shortcuts app. The walker manages step-import keys with their
 * session; a Shortcut sends the day's steps with a key alone. Keys and sessions are different
 * credentials: a key opens the import route and nothing else, and the import route takes no session.
 */
export const appleHealthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The bad-key throttle keeps the sign-in throttle's counters on a one-minute window, under keys of
  // their own (`step-import:`); its hourly housekeeping drops them once their window has long ended.
  const { stepImportKeys, ledger, badImportKeyThrottle: badKeyThrottle } = app.repositories;
  app.decorateRequest("stepImportKey", null);

  const keyRefusals = { 400: ErrorResponse, 401: ErrorResponse };

  app.post(
    HEALTH_KEYS_PATH,
    {
      onRequest: app.requireUser,
      // A name of spaces alone names nothing: trimmed first, it is refused as empty.
      preValidation: async (request) => {
        const body = request.body as { name?: unknown } | null;
        if (body && typeof body === "object" && typeof body.name === "string")
          body.name = trimInvisible(body.name);
      },
      schema: {
        body: CreateStepImportKeyRequest,
        response: { 201: CreatedStepImportKey, ...keyRefusals, 409: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const created = await stepImportKeys.create(user.id, request.body.name);
      if (!created) throw new ConflictError(APPLE_HEALTH_MESSAGES.tooManyKeys);
      const { id, name, createdAt } = keyView(created.row);
      return reply.status(201).send({ id, name, key: created.key, createdAt });
    },
  );

  app.get(
    HEALTH_KEYS_PATH,
    { onRequest: app.requireUser, schema: { response: { 200: StepImportKeyList, 401: ErrorResponse } } },
    async (request) => (await stepImportKeys.list(signedInUser(request).id)).map(keyView),
  );

  app.delete(
    `${HEALTH_KEYS_PATH}/:id`,
    {
      onRequest: app.requireUser,
      schema: {
        params: StepImportKeyParams,
        response: { 204: NoContent, ...keyRefusals, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      // Another walker's key is as unknown as one never made: its existence is not theirs to learn.
      const removed = await stepImportKeys.revoke(signedInUser(request).id, request.params.id);
      if (!removed) throw new NotFoundError(APPLE_HEALTH_MESSAGES.keyNotFound);
      return reply.status(204).send(null);
    },
  );

  /**
   * Before the body is read: the key must name a walker. An address that has sent
   * BAD_KEY_CALLS_PER_MINUTE calls without a working key this minute is stopped before its key is
   * hashed and looked up; only such calls count against it, so a burst of good calls (a Shortcut's
   * days sent at once) is never refused by it. Then a good key's calls are counted against the key.
   */
  const requireImportKey = async (request: FastifyRequest, reply: FastifyReply) => {
    const address = `step-import:${networkOf(request.ip)}`;
    const wait = await badKeyThrottle.waitFor(address, BAD_KEY_CALLS_PER_MINUTE);
    if (wait > 0) throw tooManyRequests(reply, wait, APPLE_HEALTH_MESSAGES.tooManyBadKeys);
    const key = bearerKey(request.headers.authorization);
    const holder = key === undefined ? undefined : await stepImportKeys.findHolder(key);
    const refuse = async (message: string) => {
      await badKeyThrottle.attempt([{ key: address, limit: BAD_KEY_CALLS_PER_MINUTE }]);
      return new UnauthorizedError(message);
    };
    if (key === undefined) throw await refuse(APPLE_HEALTH_MESSAGES.keyRequired);
    if (!holder) throw await refuse(APPLE_HEALTH_MESSAGES.keyNotValid);
    const keyWait = await stepImportKeys.countCall(holder.keyId, IMPORT_CALLS_PER_MINUTE);
    // Removed since it was looked up: as unknown as a key never made.
    if (keyWait === null) throw await refuse(APPLE_HEALTH_MESSAGES.keyNotValid);
    if (keyWait > 0) throw tooManyRequests(reply, keyWait, APPLE_HEALTH_MESSAGES.tooManyCalls);
    request.stepImportKey = holder;
  };

  app.post(
    APPLE_HEALTH_IMPORT_PATH,
    {
      onRequest: requireImportKey,
      schema: {
        description:
          "Steps from Apple Health, sent by an iPhone Shortcut with `Authorization: Bearer <step-import key>` " +
          "(no session cookie). Send {steps} (or {steps, date}) for one day, where no date means London today, " +
          "or {days: [{date, steps}, …]} for up to 31. Each day is kept as the larger of this count and the one " +
          "already held; nothing is recorded when any day is refused.",
        body: AppleHealthImportRequestSchema,
        response: {
          200: AppleHealthImportResponseSchema,
          ...keyRefusals,
          422: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request) => {
      const holder = request.stepImportKey;
      if (!holder) throw new UnauthorizedError(APPLE_HEALTH_MESSAGES.keyRequired);
      const userId = holder.user.id;
      const now = Date.now();
      const days = importedDays(request.body, now);
      const readings = days.map((day) =>
        counterReading(userId, undefined, { ...day, source: APPLE_HEALTH_SOURCE }),
      );
      // One after another, so that the last answer's totals include every day of the import.
      const dayTotals: number[] = [];
      const raisedDays: DayString[] = [];
      let totals = { todaySteps: 0, monthlySteps: 0 };
      for (const reading of readings) {
        const recorded = await ledger.recordCount(reading, now);
        dayTotals.push(recorded.daySteps);
        if (recorded.raised) raisedDays.push(reading.day);
        totals = recorded;
      }
      const counterId = readings[0]?.counterId ?? `health:${APPLE_HEALTH_SOURCE}`;
      const kept = await stepImportKeys.healthCounts(
        userId,
        counterId,
        days.map((day) => day.date),
      );
      await stepImportKeys.markUsed(holder.keyId, now);
      // Days an import left as they were changed nothing a badge or a goal could reach.
      if (raisedDays.length > 0) app.services.badges.soon(userId, londonDay, raisedDays);
      return {
        days: days.map((day, index) => ({
          date: day.date,
          steps: kept.get(day.date) ?? day.steps,
          daySteps: dayTotals[index] ?? 0,
        })),
        todaySteps: totals.todaySteps,
        monthlySteps: totals.monthlySteps,
      } satisfies AppleHealthImportResponse;
    },
  );
};
