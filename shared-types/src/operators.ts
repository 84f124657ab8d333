import { type Static, Type } from "typebox";
import type { DayString, MonthString } from "./dates.js";
import { MultiLineText, SingleLineText } from "./text.js";

/** Every operator route is under this prefix: walkers find nothing there, and nothing of it is cached. */
export const OPERATOR_API_PREFIX = "/api/operator/";

/** Postal entries: POST records one, GET lists a month's (`?month=YYYY-MM`). */
export const OPERATOR_POSTAL_ENTRIES_PATH = "/api/operator/postal-entries";
/** Every operator action, newest first (`?before=<id>&limit=`). */
export const OPERATOR_AUDIT_LOG_PATH = "/api/operator/audit-log";

/** A postal entry for month M counts only if it arrived by this day of M (23:59 London). */
export const POSTAL_ENTRY_LAST_DAY = 25;
export const POSTAL_ENTRY_NAME_MAX_CHARS = 120;
export const POSTAL_ENTRY_ADDRESS_MAX_CHARS = 500;
/** Postal entries one operator may record in 24 hours: far beyond any real post bag. */
export const POSTAL_ENTRIES_PER_OPERATOR_PER_DAY = 500;
export const AUDIT_LOG_PAGE_MAX = 100;
export const AUDIT_LOG_PAGE_DEFAULT = 50;
/** A month's entries in one answer at most (the list says when there were more). */
export const POSTAL_ENTRIES_LIST_MAX = 2000;

export const OPERATOR_MESSAGES = {
  receivedAfterClose: `Received after the ${POSTAL_ENTRY_LAST_DAY}th: this entry is for no draw.`,
  receivedInFuture: "The date received is in the future.",
  receivedBeforeMonth:
    "The date received is before the month of the draw: this entry is for an earlier draw.",
  monthTooOld:
    "That month's postal entries closed long ago: entries can be recorded for this month or last month only.",
  monthInFuture:
    "That month's draw has not begun: entries can be recorded for this month or last month only.",
  monthCounted:
    "That month's tickets have already been counted for its draw: an entry recorded now would be in no draw.",
  monthHadNoDraw:
    "That month had no prize draw: it closed before a draw was set up for it, so an entry recorded now would be in no draw.",
  tooManyEntries: `You have recorded ${POSTAL_ENTRIES_PER_OPERATOR_PER_DAY} postal entries in the last 24 hours. Please try again later.`,
} as const;

const MONTH_PATTERN = "^\\d{4}-(0[1-9]|1[0-2])$";
const DAY_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

export const PostalEntryRequest = Type.Object(
  {
    month: Type.String({ pattern: MONTH_PATTERN, description: "The draw's month, YYYY-MM" }),
    fullName: /* @__PURE__ */ SingleLineText({ minLength: 1, maxLength: POSTAL_ENTRY_NAME_MAX_CHARS }),
    address: /* @__PURE__ */ MultiLineText({ minLength: 1, maxLength: POSTAL_ENTRY_ADDRESS_MAX_CHARS }),
    email: Type.Optional(
      Type.Union([/* @__PURE__ */ SingleLineText({ format: "email", maxLength: 320 }), Type.Null()]),
    ),
    receivedOn: Type.String({ pattern: DAY_PATTERN, description: "The London day it arrived, YYYY-MM-DD" }),
  },
  { additionalProperties: false },
);
export type PostalEntryRequest = Static<typeof PostalEntryRequest>;

export const PostalEntry = Type.Object({
  id: Type.String(),
  month: Type.String(),
  fullName: Type.String(),
  address: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  receivedOn: Type.String(),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
  /** The operator who recorded it. */
  recordedBy: Type.Union([Type.String(), Type.Null()]),
  /** Same normalised name or same email, received the same day, for the same month, as an earlier entry. */
  possibleDuplicate: Type.Boolean(),
  duplicateOf: Type.Union([Type.String(), Type.Null()]),
});
export type PostalEntry = Static<typeof PostalEntry>;

export const PostalEntriesQuery = Type.Object(
  { month: Type.String({ pattern: MONTH_PATTERN }) },
  { additionalProperties: false },
);
export type PostalEntriesQuery = Static<typeof PostalEntriesQuery>;

export const PostalEntryList = Type.Object({
  month: Type.String(),
  entries: Type.Array(PostalEntry),
  /** True when the month holds more than the list shows. */
  truncated: Type.Boolean(),
});
export type PostalEntryList = Static<typeof PostalEntryList>;

export const AuditLogQuery = Type.Object(
  {
    // The audit log's ids are 32-bit integers in PostgreSQL: a larger `before` cannot be compared.
    before: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_LOG_PAGE_MAX })),
  },
  { additionalProperties: false },
);
export type AuditLogQuery = Static<typeof AuditLogQuery>;

export const AuditLogEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ description: "ISO 8601 timestamp" }),
  operatorUserId: Type.Union([Type.String(), Type.Null()]),
  /** The operator's email as it is now, when the account still exists. */
  operatorEmail: Type.Union([Type.String(), Type.Null()]),
  action: Type.String(),
  subject: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
});
export type AuditLogEntry = Static<typeof AuditLogEntry>;

export const AuditLogPage = Type.Object({
  entries: Type.Array(AuditLogEntry),
  /** The `before` that fetches the next, older page; null on the last page. */
  nextBefore: Type.Union([Type.Integer(), Type.Null()]),
});
export type AuditLogPage = Static<typeof AuditLogPage>;

/** The last day a postal entry for `month` may arrive and still count. */
export function postalClosingDay(month: MonthString): DayString {
  return `${month}-${String(POSTAL_ENTRY_LAST_DAY).padStart(2, "0")}`;
}
