import {
  AUDIT_LOG_PAGE_DEFAULT,
  AuditLogPage,
  AuditLogQuery,
  ErrorResponse,
  isCalendarDay,
  londonDay,
  londonMonth,
  type MonthString,
  OPERATOR_AUDIT_LOG_PATH,
  OPERATOR_MESSAGES,
  OPERATOR_POSTAL_ENTRIES_PATH,
  POSTAL_ENTRIES_LIST_MAX,
  POSTAL_ENTRIES_PER_OPERATOR_PER_DAY,
  PostalEntriesQuery,
  PostalEntry,
  PostalEntryList,
  PostalEntryRequest,
  postalClosingDay,
  trimInvisible,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { signedInUser } from "../../../auth/sessions.js";
import { AppError, BadRequestError, UnprocessableError } from "../../../errors.js";
import type { AuditLogRow } from "../../../repositories/audit-log.js";
import { toPostalEntry } from "../../../repositories/postal-entries.js";
import { operatorChallengeRoutes } from "./challenges.js";
import { reviewRoutes } from "./reviews.js";

/** The month before `month`. */
function monthBefore(month: MonthString): MonthString {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, "0")}`;
}

/**
 * Why a postal entry for `month` received on `receivedOn` can go to no draw, or null when it can.
 * Entries are recorded for this London month or the last one (the post is slow, and the draw
 * closes in the first days of the next month); each must have arrived within its month, by the
 * 25th, and not after today.
 */
export function postalEntryRefusal(month: MonthString, receivedOn: string, now = Date.now()): string | null {
  const thisMonth = londonMonth(now);
  if (month > thisMonth) return OPERATOR_MESSAGES.monthInFuture;
  if (month < monthBefore(thisMonth)) return OPERATOR_MESSAGES.monthTooOld;
  if (receivedOn > londonDay(now)) return OPERATOR_MESSAGES.receivedInFuture;
  if (receivedOn < `${month}-01`) return OPERATOR_MESSAGES.receivedBeforeMonth;
  if (receivedOn > postalClosingDay(month)) return OPERATOR_MESSAGES.receivedAfterClose;
  return null;
}

function parseJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

function toAuditLogEntry(row: AuditLogRow) {
  return {
    id: Number(row.id),
    at: new Date(Number(row.at)).toISOString(),
    operatorUserId: row.operator_user_id,
    operatorEmail: row.operator_email,
    action: row.action,
    subject: row.subject,
    before: parseJson(row.before_json),
    after: parseJson(row.after_json),
  };
}

/** The operators' API: postal entries, the audit log, the review queue and public challenges. Everyone else finds nothing here. */
export const operatorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireOperator);
  await app.register(reviewRoutes);
  await app.register(operatorChallengeRoutes);
  const { postalEntries, auditLog } = app.repositories;
  const refused = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse };

  app.post(
    OPERATOR_POSTAL_ENTRIES_PATH,
    {
      schema: {
        body: PostalEntryRequest,
        response: {
          201: PostalEntry,
          ...refused,
          409: ErrorResponse,
          422: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { month, receivedOn } = request.body;
      const fullName = trimInvisible(request.body.fullName);
      const address = trimInvisible(request.body.address);
      const email = request.body.email?.trim() || null;
      if (!isCalendarDay(receivedOn))
        throw new BadRequestError("receivedOn must be a calendar day, YYYY-MM-DD.");
      if (fullName === "") throw new BadRequestError("fullName must not be blank.");
      if (address === "") throw new BadRequestError("address must not be blank.");
      const refusal = postalEntryRefusal(month, receivedOn);
      if (refusal) throw new UnprocessableError(refusal);
      const row = await postalEntries.create(
        { month, fullName, address, email, receivedOn },
        signedInUser(request).id,
        POSTAL_ENTRIES_PER_OPERATOR_PER_DAY,
      );
      if (!row) throw new AppError(429, OPERATOR_MESSAGES.tooManyEntries);
      return reply.status(201).send(toPostalEntry(row));
    },
  );

  app.get(
    OPERATOR_POSTAL_ENTRIES_PATH,
    { schema: { querystring: PostalEntriesQuery, response: { 200: PostalEntryList, ...refused } } },
    async (request) => {
      const { month } = request.query;
      const rows = await postalEntries.listForMonth(month, POSTAL_ENTRIES_LIST_MAX + 1);
      return {
        month,
        entries: rows.slice(0, POSTAL_ENTRIES_LIST_MAX).map(toPostalEntry),
        truncated: rows.length > POSTAL_ENTRIES_LIST_MAX,
      };
    },
  );

  app.get(
    OPERATOR_AUDIT_LOG_PATH,
    { schema: { querystring: AuditLogQuery, response: { 200: AuditLogPage, ...refused } } },
    async (request) => {
      const limit = request.query.limit ?? AUDIT_LOG_PAGE_DEFAULT;
      const rows = await auditLog.page(request.query.before ?? null, limit + 1);
      const page = rows.slice(0, limit);
      return {
        entries: page.map(toAuditLogEntry),
        nextBefore: rows.length > limit ? Number(page.at(-1)?.id) : null,
      };
    },
  );
};
