import type { Kysely } from "kysely";
import type { Database, DialectName } from "../db/database.js";

/** The columns every queue table shares: a state, a due time, a lease and the attempts made. */
interface LeasedColumns {
  id: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: number;
  claimed_until: number | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

/**
 * A queue row with its times and count as numbers: PostgreSQL's BIGINT arrives as a number already
 * (see database.ts); SQLite's may be a bigint.
 */
export function leasedRowNumbers<Row extends LeasedColumns>(row: Row): Row {
  return {
    ...row,
    attempts: Number(row.attempts),
    next_attempt_at: Number(row.next_attempt_at),
    claimed_until: row.claimed_until == null ? null : Number(row.claimed_until),
    created_at: Number(row.created_at),
    sent_at: row.sent_at == null ? null : Number(row.sent_at),
  };
}

/**
 * A queue kept in a table (`mail_outbox`, `push_outbox`): a worker claims a due row by setting a
 * lease (`claimed_until`) in one statement that only succeeds while nobody else holds it; the claim
 * also counts the attempt, so a process that dies mid-send has used one. Whatever the worker decides
 * next is written only while its own lease still stands, so a worker that overran its lease cannot
 * undo a later one's work.
 */
export class LeasedRows<Row extends LeasedColumns> {
  private readonly db: Kysely<Record<string, LeasedColumns>>;
  private readonly dialect: DialectName;

  constructor(
    database: Database,
    private readonly table: string,
  ) {
    this.db = database.db as unknown as Kysely<Record<string, LeasedColumns>>;
    this.dialect = database.dialect;
  }

  /**
   * Claims the oldest due row nobody holds, until `now + leaseMs`, and counts the attempt; undefined
   * when none is due. PostgreSQL skips rows another process is claiming at this very moment rather
   * than waiting for them; SQLite has a single writer, so its one UPDATE is already atomic. The outer
   * WHERE repeats the claim's conditions, so that a row claimed in between is never taken twice.
   */
  async claimNext(leaseMs: number, now = Date.now()): Promise<Row | undefined> {
    const { table } = this;
    const due = this.db
      .selectFrom(table)
      .select("id")
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
      .orderBy("next_attempt_at")
      .orderBy("id")
      .limit(1);
    const candidate = this.dialect === "postgres" ? due.forUpdate().skipLocked() : due;
    const row = await this.db
      .updateTable(table)
      .set((eb) => ({ claimed_until: now + leaseMs, attempts: eb("attempts", "+", 1) }))
      // `=`, not `in`: PostgreSQL evaluates a scalar subquery once, whereas it may run an `in (…)`
      // subquery again per row and so claim more rows than the one returned.
      .where("id", "=", candidate)
      .where("status", "=", "pending")
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
      .returningAll()
      .executeTakeFirst();
    return row ? leasedRowNumbers(row as Row) : undefined;
  }

  /** Delivered: `done` holds any other columns to set with it. False when the lease was lost meanwhile. */
  async markSent(claim: Row, now = Date.now(), done: Partial<Row> = {}): Promise<boolean> {
    const result = await this.db
      .updateTable(this.table)
      .set({ ...done, status: "sent", sent_at: now, claimed_until: null, last_error: null })
      .where("id", "=", claim.id)
      .where("claimed_until", "=", claim.claimed_until)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Not delivered this time: due again at `retryAt`, or given up on (kept as failed) when null. */
  async markAttemptFailed(claim: Row, error: string, retryAt: number | null): Promise<boolean> {
    const result = await this.db
      .updateTable(this.table)
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

  /** The earliest time a pending row falls due, or null when none is pending. */
  async nextDueAt(): Promise<number | null> {
    const row = await this.db
      .selectFrom(this.table)
      .select((eb) => eb.fn.min("next_attempt_at").as("due"))
      .where("status", "=", "pending")
      .executeTakeFirst();
    return row?.due == null ? null : Number(row.due);
  }
}
