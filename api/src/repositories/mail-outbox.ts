import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../db/database.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { MailOutboxTable } from "../db/schema/mail-outbox.js";
import { LeasedRows, leasedRowNumbers } from "./leased-rows.js";

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

/** The mail queue's table, claimed under a lease (LeasedRows). */
export class MailOutboxRepository {
  private readonly db: Kysely<DatabaseSchema>;
  private readonly leased: LeasedRows<MailOutboxRow>;

  constructor(database: Database) {
    this.db = database.db;
    this.leased = new LeasedRows(database, "mail_outbox");
  }

  /**
   * Queues `mail`, due at once; resolves to its id once stored. `db` is a transaction when the mail
   * must be stored with something else or not at all (a notification and its mail).
   */
  async enqueue(mail: QueuedMail, now = Date.now(), db: Kysely<DatabaseSchema> = this.db): Promise<string> {
    const id = randomUUID();
    await db
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

  /** Claims the oldest due message nobody holds (see LeasedRows). */
  claimNext(leaseMs: number, now = Date.now()): Promise<MailOutboxRow | undefined> {
    return this.leased.claimNext(leaseMs, now);
  }

  /**
   * Delivered: the body is emptied (it may hold a single-use link) and the envelope kept until
   * housekeeping. False when the lease was lost meanwhile.
   */
  markSent(claim: MailOutboxRow, now = Date.now()): Promise<boolean> {
    return this.leased.markSent(claim, now, { text: "", html: null });
  }

  /** Not delivered this time: due again at `retryAt`, or given up on (kept as failed) when null. */
  markAttemptFailed(claim: MailOutboxRow, error: string, retryAt: number | null): Promise<boolean> {
    return this.leased.markAttemptFailed(claim, error, retryAt);
  }

  async find(id: string): Promise<MailOutboxRow | undefined> {
    const row = await this.db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? leasedRowNumbers(row) : undefined;
  }

  /** The earliest time a pending message falls due, or null when none is pending. */
  nextDueAt(): Promise<number | null> {
    return this.leased.nextDueAt();
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
