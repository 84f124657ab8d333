import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";

/** What oidc-provider stores for one model instance (its AdapterPayload). */
export interface StoredPayload {
  grantId?: string;
  userCode?: string;
  uid?: string;
  consumed?: unknown;
  [key: string]: unknown;
}

/** SQL behind the built-in identity provider's adapter (auth/provider/adapter.ts). */
export class OidcPayloadsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async upsert(model: string, id: string, payload: StoredPayload, expiresAt: number | null): Promise<void> {
    const row = {
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      user_code: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expires_at: expiresAt,
    };
    await this.db
      .insertInto("oidc_payloads")
      .values({ model, id, consumed_at: null, ...row })
      .onConflict((conflict) => conflict.columns(["model", "id"]).doUpdateSet(row))
      .execute();
  }

  async find(model: string, id: string, now = Date.now()): Promise<StoredPayload | undefined> {
    return this.findBy(model, "id", id, now);
  }

  async findByUid(model: string, uid: string, now = Date.now()): Promise<StoredPayload | undefined> {
    return this.findBy(model, "uid", uid, now);
  }

  async findByUserCode(
    model: string,
    userCode: string,
    now = Date.now(),
  ): Promise<StoredPayload | undefined> {
    return this.findBy(model, "user_code", userCode, now);
  }

  private async findBy(
    model: string,
    column: "id" | "uid" | "user_code",
    value: string,
    now: number,
  ): Promise<StoredPayload | undefined> {
    const row = await this.db
      .selectFrom("oidc_payloads")
      .select(["payload", "consumed_at"])
      .where("model", "=", model)
      .where(column, "=", value)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
      .executeTakeFirst();
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as StoredPayload;
    return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(row.consumed_at / 1000) };
  }

  async consume(model: string, id: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable("oidc_payloads")
      .set({ consumed_at: now })
      .where("model", "=", model)
      .where("id", "=", id)
      .execute();
  }

  async destroy(model: string, id: string): Promise<void> {
    await this.db.deleteFrom("oidc_payloads").where("model", "=", model).where("id", "=", id).execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom("oidc_payloads").where("grant_id", "=", grantId).execute();
  }

  async deleteExpired(now = Date.now()): Promise<number> {
    const result = await this.db
      .deleteFrom("oidc_payloads")
      .where("expires_at", "<=", now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
