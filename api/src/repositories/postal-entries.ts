import { randomUUID } from "node:crypto";
import { drawClosesAt, OPERATOR_MESSAGES, type PostalEntry } from "@charity-steps/shared-types";
import type { Kysely, Selectable } from "kysely";
import type { Database } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { PostalEntriesTable } from "../db/schema/operators.js";
import { ConflictError } from "../errors.js";
import type { AuditLogRepository } from "./audit-log.js";

export type PostalEntryRow = Selectable<PostalEntriesTable>;

/** A postal entry as the operator's route has cleaned it: names and address trimmed, a blank email null. */
export interface NewPostalEntry {
  month: string;
  fullName: string;
  address: string;
  email: string | null;
  receivedOn: string;
}

/**
 * A name as duplicates are matched: case, accents, punctuation and runs of spaces ignored, so that
 * "Mary O'Brien" and "mary  obrien" are the same person.
 */
export function nameKey(fullName: string): string {
  return fullName
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
}

export function toPostalEntry(row: PostalEntryRow): PostalEntry {
  return {
    id: row.id,
    month: row.month,
    fullName: row.full_name,
    address: row.address,
    email: row.email,
    receivedOn: row.received_on,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    recordedBy: row.recorded_by,
    possibleDuplicate: row.duplicate_of !== null,
    duplicateOf: row.duplicate_of,
  };
}

export const POSTAL_ENTRY_CREATE = "postal_entry.create";

/** Postal entries to the prize draw; each one recorded is written to the audit log with it. */
export class PostalEntriesRepository {
  constructor(
    private readonly database: Database,
    private readonly auditLog: AuditLogRepository,
  ) {}

  /**
   * Records `entry` for `operatorId` and its audit entry in one transaction; null (and nothing
   * written) when the operator has already recorded `perDay` entries in the last 24 hours.
   */
  async create(
    entry: NewPostalEntry,
    operatorId: string,
    perDay: number,
    now = Date.now(),
  ): Promise<PostalEntryRow | null> {
    return this.database.transaction(async (trx) => {
      // Once the month's tickets are counted, an entry would be in no draw. The draw's row is held
      // (on PostgreSQL) until this entry is in, so that a close racing it either waits and counts
      // it, or has already counted and is seen here; SQLite has one writer at a time anyway.
      let draw = trx.selectFrom("draws").select("status").where("month", "=", entry.month);
      if (this.database.dialect === "postgres") draw = draw.forShare();
      const counted = await draw.executeTakeFirst();
      if (counted && counted.status !== "open") throw new ConflictError(OPERATOR_MESSAGES.monthCounted);
      // No draw, and past the moment one would have counted its tickets: none can be set up now.
      if (!counted && now >= drawClosesAt(entry.month).getTime()) {
        throw new ConflictError(OPERATOR_MESSAGES.monthHadNoDraw);
      }

      const recent = await trx
        .selectFrom("postal_entries")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("recorded_by", "=", operatorId)
        .where("created_at", ">", now - 86_400_000)
        .executeTakeFirstOrThrow();
      if (Number(recent.n) >= perDay) return null;

      const key = nameKey(entry.fullName);
      const emailKey = entry.email ? entry.email.toLowerCase() : null;
      const resembles = await findResembling(trx, entry.month, entry.receivedOn, key, emailKey);
      const row: PostalEntryRow = {
        id: randomUUID(),
        month: entry.month,
        full_name: entry.fullName,
        name_key: key,
        address: entry.address,
        email: entry.email,
        email_key: emailKey,
        received_on: entry.receivedOn,
        recorded_by: operatorId,
        duplicate_of: resembles ?? null,
        created_at: now,
      };
      await trx.insertInto("postal_entries").values(row).execute();
      await this.auditLog.append(trx, {
        operatorUserId: operatorId,
        action: POSTAL_ENTRY_CREATE,
        subject: `postal_entry:${row.id}`,
        before: null,
        after: toPostalEntry(row),
        at: now,
      });
      return row;
    });
  }

  /** The month's entries in the order they were recorded, at most `limit` of them. */
  async listForMonth(month: string, limit: number): Promise<PostalEntryRow[]> {
    return this.database.db
      .selectFrom("postal_entries")
      .selectAll()
      .where("month", "=", month)
      .orderBy("created_at")
      .orderBy("id")
      .limit(limit)
      .execute();
  }
}

/** The earliest entry of `month` received on `receivedOn` with the same name or the same email. */
async function findResembling(
  trx: Kysely<DatabaseSchema>,
  month: string,
  receivedOn: string,
  key: string,
  emailKey: string | null,
): Promise<string | undefined> {
  const match = await trx
    .selectFrom("postal_entries")
    .select("id")
    .where("month", "=", month)
    .where("received_on", "=", receivedOn)
    .where((eb) =>
      emailKey === null
        ? eb("name_key", "=", key)
        : eb.or([eb("name_key", "=", key), eb("email_key", "=", emailKey)]),
    )
    .orderBy("created_at")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return match?.id;
}
