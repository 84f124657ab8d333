import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { ACCOUNT_EXPORT_PATH, HEALTH_KEYS_PATH } from "@charity-steps/shared-types";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { strFromU8, unzipSync } from "fflate";
import { type Kysely, sql } from "kysely";
import { expect } from "vitest";
import type { Database } from "../../src/db/database.js";
import { createSignedInWalker } from "../helper.js";
import { TEST_TODAY } from "./clock.js";
import { manualForm, photo, stepsClient } from "./steps.js";

/** A word no other test data holds, so that finding it anywhere means it came from this walker. */
export function uniqueWord(prefix: string): string {
  return `${prefix}${randomBytes(5).toString("hex")}`;
}

type Answer = Promise<LightMyRequestResponse>;

export interface AccountClient {
  get(url: string): Answer;
  post(url: string, payload?: unknown): Answer;
  put(url: string, payload: unknown): Answer;
  delete(url: string, payload?: unknown): Answer;
}

/** A walker's session calls as the Account page makes them (same-origin, JSON). */
export function accountClient(app: FastifyInstance, cookie: string): AccountClient {
  const headers = { cookie, "sec-fetch-site": "same-origin" };
  return {
    get: (url: string) => app.inject({ method: "GET", url, headers }),
    post: (url: string, payload?: unknown) =>
      app.inject({
        method: "POST",
        url,
        headers: payload === undefined ? headers : { ...headers, "content-type": "application/json" },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      }),
    put: (url: string, payload: unknown) =>
      app.inject({
        method: "PUT",
        url,
        headers: { ...headers, "content-type": "application/json" },
        payload: JSON.stringify(payload),
      }),
    delete: (url: string, payload?: unknown) =>
      app.inject({
        method: "DELETE",
        url,
        headers: payload === undefined ? headers : { ...headers, "content-type": "application/json" },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      }),
  };
}

/**
 * A walker with data in every feature: steps today from two devices, a manual entry with a photo
 * and a note, a charity, a group they run, a step-import key.
 */
export async function walkerWithData(app: FastifyInstance): Promise<WalkerWithData> {
  const walker = await createSignedInWalker(app, uniqueWord("Firstname"));
  await app.database.db
    .updateTable("users")
    .set({ last_name: uniqueWord("Lastname") })
    .where("id", "=", walker.user.id)
    .execute();
  return seedEveryFeature(app, walker);
}

/** Gives a signed-in walker data in every feature (see walkerWithData). */
export async function seedEveryFeature(
  app: FastifyInstance,
  walker: SignedInWalker,
): Promise<WalkerWithData> {
  const user = await app.database.db
    .selectFrom("users")
    .selectAll()
    .where("id", "=", walker.user.id)
    .executeTakeFirstOrThrow();
  const steps = stepsClient(app, walker.cookie);
  const account = accountClient(app, walker.cookie);
  // The fixed today that the account tests set their clock to.
  const today = TEST_TODAY;
  const phoneId = `phone-${randomUUID()}`;
  const watchId = `watch-${randomUUID()}`;
  for (const [deviceId, count] of [
    [phoneId, 1200],
    [watchId, 800],
  ] as const) {
    const response = await steps.sync({ steps: count, date: today, source: "device_motion" }, deviceId);
    expect(response.statusCode, response.body).toBe(200);
  }
  const note = uniqueWord("Note about a walk ");
  // Each walker's picture is its own size, so their bytes differ.
  const manual = await steps.addManual(
    manualForm(
      { steps: "3000", date: today, note },
      { bytes: await photo("png", 32 + randomInt(64), 32 + randomInt(64)) },
    ),
  );
  expect(manual.statusCode, manual.body).toBe(201);
  expect(
    (await account.post("/api/charity/select", { charityName: "British Heart Foundation" })).statusCode,
  ).toBe(200);
  const groupName = uniqueWord("Group ");
  const group = await account.post("/api/groups", { name: groupName });
  expect(group.statusCode, group.body).toBe(201);
  const keyName = uniqueWord("Key ");
  const key = await account.post(HEALTH_KEYS_PATH, { name: keyName });
  expect(key.statusCode, key.body).toBe(201);
  const stored = await app.database.db
    .selectFrom("step_photos")
    .select("data")
    .where("user_id", "=", walker.user.id)
    .executeTakeFirstOrThrow();
  return {
    ...walker,
    user,
    steps,
    account,
    firstName: user.first_name ?? "",
    lastName: user.last_name ?? "",
    email: user.email ?? "",
    today,
    phoneId,
    watchId,
    note,
    groupName,
    joinCode: (group.json() as { joinCode: string }).joinCode,
    groupId: (group.json() as { id: number }).id,
    keyName,
    keySecret: (key.json() as { key: string }).key,
    photoBytes: Buffer.from(stored.data),
  };
}

export type SignedInWalker = Pick<
  Awaited<ReturnType<typeof createSignedInWalker>>,
  "user" | "cookie" | "token"
>;

export interface WalkerWithData extends SignedInWalker {
  steps: ReturnType<typeof stepsClient>;
  account: AccountClient;
  firstName: string;
  lastName: string;
  email: string;
  today: string;
  phoneId: string;
  watchId: string;
  note: string;
  groupName: string;
  joinCode: string;
  groupId: number;
  keyName: string;
  keySecret: string;
  photoBytes: Buffer;
}

export interface DownloadedExport {
  response: LightMyRequestResponse;
  files: Record<string, Uint8Array>;
  text(name: string): string;
  json<T = unknown>(name: string): T;
}

/** Where a table's column holds one of the needles: "table.column: needle". */
export async function findEverywhere(
  database: Database,
  needles: { text: string[]; bytes: Buffer[] },
): Promise<string[]> {
  const db = database.db.withoutPlugins() as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const columns: { table: string; column: string }[] =
    database.dialect === "postgres"
      ? (
          await sql<{ table_name: string; column_name: string }>`
            select table_name, column_name from information_schema.columns
            where table_schema = current_schema() order by table_name, ordinal_position`.execute(db)
        ).rows.map((row) => ({ table: row.table_name, column: row.column_name }))
      : (
          await Promise.all(
            (
              await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
            ).rows.map(async ({ name }) =>
              (
                await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db)
              ).rows.map((column) => ({ table: name, column: column.name })),
            ),
          )
        ).flat();
  if (columns.length === 0) throw new Error("no columns found");
  const lowered = needles.text.filter(Boolean).map((needle) => needle.toLowerCase());
  const found: string[] = [];
  for (const { table, column } of columns) {
    const { rows } = await sql<{
      value: unknown;
    }>`select ${sql.ref(column)} as value from ${sql.table(table)}`.execute(db);
    for (const { value } of rows) {
      if (value === null || value === undefined || typeof value === "number" || typeof value === "bigint")
        continue;
      if (value instanceof Uint8Array) {
        const bytes = Buffer.from(value);
        for (const needle of needles.bytes) {
          if (needle.length > 0 && bytes.includes(needle))
            found.push(`${table}.${column}: ${needle.length} photo bytes`);
        }
        const text = bytes.toString("latin1").toLowerCase();
        for (const needle of lowered) if (text.includes(needle)) found.push(`${table}.${column}: ${needle}`);
        continue;
      }
      const text = (typeof value === "string" ? value : JSON.stringify(value)).toLowerCase();
      for (const needle of lowered) if (text.includes(needle)) found.push(`${table}.${column}: ${needle}`);
    }
  }
  return found;
}

/** Every file of the walker's export, by name. */
export async function downloadExport(app: FastifyInstance, cookie: string): Promise<DownloadedExport> {
  const response = await app.inject({ method: "GET", url: ACCOUNT_EXPORT_PATH, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  const files = unzipSync(new Uint8Array(response.rawPayload));
  return {
    response,
    files,
    text: (name: string) => {
      const file = files[name];
      if (!file) throw new Error(`${name} is not in the export: ${Object.keys(files).join(", ")}`);
      return strFromU8(file);
    },
    json: <T>(name: string) => {
      const file = files[name];
      if (!file) throw new Error(`${name} is not in the export: ${Object.keys(files).join(", ")}`);
      return JSON.parse(strFromU8(file)) as T;
    },
  };
}
