import type { Kysely, Selectable } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { AuditLogTable } from "../db/schema/operators.js";

export type AuditLogRow = Selectable<AuditLogTable> & { operator_email: string | null };

export interface AuditEntry {
  /** Null for what the server does on its own schedule (a month's draw run by its scheduled job). */
  operatorUserId: string | null;
  action: string;
  subject: string;
  before: unknown;
  after: unknown;
  at?: number;
}

/**
 * The operators' audit log. It can be appended to and read, nothing else: there is deliberately
 * no update or delete here, and the database refuses both.
 */
export class AuditLogRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** Appends `entry` in `trx`, the transaction that makes the change it records. */
  async append(trx: Kysely<DatabaseSchema>, entry: AuditEntry): Promise<void> {
    await trx
      .insertInto("audit_log")
      .values({
        at: entry.at ?? Date.now(),
        operator_user_id: entry.operatorUserId,
        action: entry.action,
        subject: entry.subject,
        before_json:
          entry.before === null || entry.before === undefined ? null : JSON.stringify(entry.before),
        after_json: entry.after === null || entry.after === undefined ? null : JSON.stringify(entry.after),
      })
      .execute();
  }

  /** Up to `limit` entries older than id `before` (all when null), newest first. */
  async page(before: number | null, limit: number): Promise<AuditLogRow[]> {
    let query = this.db
      .selectFrom("audit_log")
      .leftJoin("users", "users.id", "audit_log.operator_user_id")
      .selectAll("audit_log")
      .select("users.email as operator_email")
      .orderBy("audit_log.id", "desc")
      .limit(limit);
    if (before !== null) query = query.where("audit_log.id", "<", before);
    return query.execute();
  }
}
