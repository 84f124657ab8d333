import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * Sessions a walker can recognise and end one by one: a public id (the cookie's hash must never
 * leave the server, since it is what the lookup matches), the browser's User-Agent as sent at
 * sign-in, and when the session was last used. Sessions already open get an id of their own and
 * their last renewal as their last use; their browser stays unknown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("public_id", "text").execute();
  await db.schema.alterTable("sessions").addColumn("user_agent", "text").execute();
  await db.schema.alterTable("sessions").addColumn("last_seen_at", "bigint").execute();

  await sql`update sessions set last_seen_at = renewed_at`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`update sessions set public_id = gen_random_uuid()::text`.execute(db);
    await sql`alter table sessions alter column public_id set default gen_random_uuid()::text`.execute(db);
    await sql`alter table sessions alter column public_id set not null`.execute(db);
  } else {
    // SQLite cannot give an added column a computed default: each open session gets a random,
    // UUID-shaped id here, and every new one gets its id from the code that opens it.
    await sql`update sessions set public_id =
      lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
        || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2)
        || '-' || hex(randomblob(6)))`.execute(db);
  }
  await db.schema
    .createIndex("sessions_public_id_unique")
    .on("sessions")
    .column("public_id")
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("sessions_public_id_unique").execute();
  for (const column of ["last_seen_at", "user_agent", "public_id"]) {
    await db.schema.alterTable("sessions").dropColumn(column).execute();
  }
}
