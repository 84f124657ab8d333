import type { Kysely } from "kysely";

/**
 * What a month's draw becomes after its close: the tiers operators set, the tickets counted at
 * the close, and the prizes drawn. The tickets and the draw's public figures never change once
 * written: the ticket list is published, and anyone can recompute the winners from it.
 *
 * A walker's tickets and prizes outlive their account (its id becomes null): the published list
 * and results must stay as they were drawn.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("draws").addColumn("tiers_json", "text").execute();
  for (const [name, type] of [
    ["closed_at", "bigint"],
    ["ticket_count", "integer"],
    ["ticket_list_sha256", "text"],
    ["drawn_at", "bigint"],
    ["beacon_json", "text"],
    ["picks_used", "integer"],
    ["drawn_by", "text"],
  ] as const) {
    await db.schema.alterTable("draws").addColumn(name, type).execute();
  }

  await db.schema
    .createTable("draw_tickets")
    .addColumn("month", "text", (col) => col.notNull().references("draws.month"))
    .addColumn("ticket_id", "text", (col) => col.notNull())
    .addColumn("holder_id", "text", (col) => col.notNull())
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("postal_entry_id", "text")
    .addPrimaryKeyConstraint("draw_tickets_pk", ["month", "ticket_id"])
    .execute();
  await db.schema
    .createIndex("draw_tickets_user_idx")
    .on("draw_tickets")
    .columns(["user_id", "month"])
    .execute();

  await db.schema
    .createTable("draw_prizes")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("month", "text", (col) => col.notNull().references("draws.month"))
    /** The prize's place in the published winners: the draw's in pick order, then each redraw. */
    .addColumn("position", "integer", (col) => col.notNull())
    .addColumn("tier", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    .addColumn("pick", "integer", (col) => col.notNull())
    .addColumn("replaces_pick", "integer")
    .addColumn("ticket_id", "text", (col) => col.notNull())
    .addColumn("holder_id", "text", (col) => col.notNull())
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("postal_entry_id", "text")
    /** `awaiting_claim`, `claimed` or `redrawn`; expiry is read from `claim_by`. */
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("drawn_at", "bigint", (col) => col.notNull())
    .addColumn("claim_by", "bigint", (col) => col.notNull())
    .addColumn("notified_at", "bigint")
    .addColumn("claimed_at", "bigint")
    .addColumn("public_name", "text")
    .addColumn("county", "text")
    .addColumn("delivery_address", "text")
    .addUniqueConstraint("draw_prizes_position_key", ["month", "position"])
    // One prize per person per month, whatever redraws happen.
    .addUniqueConstraint("draw_prizes_holder_key", ["month", "holder_id"])
    .execute();
  await db.schema
    .createIndex("draw_prizes_user_idx")
    .on("draw_prizes")
    .columns(["user_id", "month"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("draw_prizes").execute();
  await db.schema.dropTable("draw_tickets").execute();
  for (const name of [
    "drawn_by",
    "picks_used",
    "beacon_json",
    "drawn_at",
    "ticket_list_sha256",
    "ticket_count",
    "closed_at",
    "tiers_json",
  ]) {
    await db.schema.alterTable("draws").dropColumn(name).execute();
  }
}
