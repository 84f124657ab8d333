import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, DialectName } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { MailOutboxTable } from "../db/schema/mail-outbox.js";

export type MailOutboxRow = MailOutboxTable;

/** What is queued: one message to one address, optionally tied to a walker. */
export interface QueuedMail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  userId: string | null;
  /** Where the one-click unsubscribe posts (RFC 8058), for mail the walker can stop. */
  unsubscribeUrl?: string | null;
}

/**
 * The mail queue's table. A worker claims a due message by setting a lease (`claimed_until`) in one
 * statement that only succeeds while nobody else holds it; the claim also counts the attempt, so a
 * process that dies mid-send has used one. Whatever the worker decides next is written only while
 * its own lease still stands, so a worker that overran its lease cannot undo a later one's work.
 */
export class MailOutboxRepository {
  private readonly db: Kysely<DatabaseSchema>;
  private readonly dialect: DialectName;

  constructor(database: Database) {
    this.db = database.db;
    this.dialect = database.dialect;
  }

  /** Queues `mail`, due at once; resolves to its id once stored. */
  async enqueue(mail: QueuedMail, now = Date.now()): Promise<string> {
    const id = randomUUID();
    await this.db
      .insertInto("mail_outbox")
      .values({
        id,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        unsubscribe_url: mail.unsubscribeUrl ?? null,
        user_id: mail.userId,
        status: "pending",
        attempts: 0,
        next_attempt_at: now,
        claimed_until: null,
        last_error: null,
        created_at: now,
        sent_at: null,
      })
      .execute();
    return id;
  }

  /**
   * Claims the oldest due message nobody holds, until `now + leaseMs`, and counts the attempt; undefined
   * when none is due. PostgreSQL skips rows another process is claiming at this very moment rather
   * than waiting for them; SQLite has a single writer, so its one UPDATE is already atomic. The outer
   * WHERE repeats the claim's conditions, so that a row claimed in between is never taken twice.
   */
  async claimNext(leaseMs: number, now = Date.now()): Promise<MailOutboxRow | undefined> {
    const due = (db: Kysely<DatabaseSchema>) =>
      db
        .selectFrom("mail_outbox")
        .select("id")
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", now)
        .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]));
    const candidate =
      this.dialect === "postgres"
        ? due(this.db).orderBy("next_attempt_at").orderBy("id").limit(1).forUpdate().skipLocked()
        : due(this.db).orderBy("next_attempt_at").orderBy("id").limit(1);
    const row = await this.db
      .updateTable("mail_outbox")
      .set((eb) => ({ claimed_until: now + leaseMs, attempts: eb("attempts", "+", 1) }))
      // `=`, not `in`: PostgreSQL evaluates a scalar subquery once, whereas it may run an `in (…)`
      // subquery again per row and so claim more rows than the one returned.
      .where("id", "=", candidate)
      .where("status", "=", "pending")
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
      .returningAll()
      .executeTakeFirst();
    return row ? numbers(row) : undefined;
  }

  /**
   * Delivered: the body is emptied (it may hold a single-use link) and the envelope kept until
   * housekeeping. False when the lease was lost meanwhile.
   */
  async markSent(claim: MailOutboxRow, now = Date.now()): Promise<boolean> {
    const result = await this.db
      .updateTable("mail_outbox")
      .set({ status: "sent", sent_at: now, claimed_until: null, text: "", html: null, last_error: null })
      .where("id", "=", claim.id)
      .where("claimed_until", "=", claim.claimed_until)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Not delivered this time: due again at `retryAt`, or given up on (kept as failed) when null. */
  async markAttemptFailed(claim: MailOutboxRow, error: string, retryAt: number | null): Promise<boolean> {
    const result = await this.db
      .updateTable("mail_outbox")
      .set({
        status: retryAt === null ? "failed" : "pending",
        next_attempt_at: retryAt ?? claim.next_attempt_at,
        claimed_until: null,
        last_error: error.slice(0, 1_000),
      })
      .where("id", "=", claim.id)
      .where("claimed_until", "=", claim.claimed_until)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async find(id: string): Promise<MailOutboxRow | undefined> {
    const row = await this.db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? numbers(row) : undefined;
  }

  /** The earliest time a pending message falls due, or null when none is pending. */
  async nextDueAt(): Promise<number | null> {
    const row = await this.db
      .selectFrom("mail_outbox")
      .select((eb) => eb.fn.min("next_attempt_at").as("due"))
      .where("status", "=", "pending")
      .executeTakeFirst();
    return row?.due == null ? null : Number(row.due);
  }

  /**
   * Erases every message to or about the walker, whatever its state: for account deletion. Pass the
   * deletion's transaction as `db` to erase them in it.
   */
  async deleteForUser(userId: string, db: Kysely<DatabaseSchema> = this.db): Promise<number> {
    const result = await db.deleteFrom("mail_outbox").where("user_id", "=", userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Housekeeping: sent messages older than `before` are forgotten. Failed ones stay for an operator. */
  async deleteSentBefore(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom("mail_outbox")
      .where("status", "=", "sent")
      .where("sent_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** PostgreSQL's BIGINT arrives as a number already (see database.ts); SQLite's may be a bigint. */
function numbers(row: MailOutboxRow): MailOutboxRow {
  return {
    ...row,
    attempts: Number(row.attempts),
    next_attempt_at: Number(row.next_attempt_at),
    claimed_until: row.claimed_until == null ? null : Number(row.claimed_until),
    created_at: Number(row.created_at),
    sent_at: row.sent_at == null ? null : Number(row.sent_at),
  };
}
