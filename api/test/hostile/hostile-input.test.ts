import { randomUUID } from "node:crypto";
import {
  ACCOUNT_SESSIONS_PATH,
  APPLE_HEALTH_IMPORT_PATH,
  addDays,
  HEALTH_KEYS_PATH,
} from "@charity-steps/shared-types";
import fc from "fast-check";
import type { FastifyInstance, InjectOptions, RouteOptions } from "fastify";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import { EXPIRED_INTERACTION_MESSAGE } from "../../src/auth/provider/interactions.js";
import { hashSessionToken } from "../../src/repositories/sessions.js";
import {
  createSignedInWalker,
  createTestDatabase,
  dialects,
  freePort,
  type TestDatabase,
  testConfig,
} from "../helper.js";
import { TEST_MONTH, TEST_TODAY, useTestClock } from "../support/clock.js";
import { walkerWithEmail } from "../support/operators.js";
import { manualForm, multipartBody, photo } from "../support/steps.js";
import {
  appTables,
  CHANGE_COUNT_TABLE,
  hostileString,
  hostileValue,
  installChangeCount,
  plausibleValue,
  type Schema,
} from "./generators.js";

/**
 * Generated hostile requests against every route of the API, driven by the routes'
 * own schemas. Every answer must be below 500, every refusal a 4xx with a JSON message (the HTML
 * sign-in pages answer HTML), and a refused request must leave the database exactly as it was.
 */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 10_000);

// Dates in the generated requests are around a fixed today, the one the app reads too.
useTestClock();

/** Routes left out, and why. */
const SKIPPED: Record<string, string> = {};

/** Routes that end the session they are sent with: each of their requests gets one of its own. */
const SIGN_OUT_ROUTES = new Set(["/api/logout"]);

/** Routes for built-in accounts only (others get 403): their requests come from such a walker. */
const BUILT_IN_ACCOUNT_ROUTES = new Set(["/api/account/password", "/api/account/email"]);

/** Operator routes (everyone else gets 404): their requests come from an operator. */
const OPERATOR_ROUTE_PREFIX = "/api/operator/";
const OPERATOR_EMAIL = "hostile.operator@example.org";

interface Route {
  method: string;
  url: string;
  schema: { body?: Schema; params?: Schema; querystring?: Schema; headers?: Schema };
}

// Both databases: PostgreSQL refuses what SQLite stores (a NUL in text), so each has its own holes.
describe.each(dialects)("hostile input on every route (%s)", (dialect) => {
  let app: FastifyInstance;
  let database: TestDatabase;
  const routes: Route[] = [];
  let walker: Awaited<ReturnType<typeof createSignedInWalker>>;
  let groupId = 0;
  let png: Buffer;
  /** A pending sign-in at the built-in provider: its id and the cookie that names it. */
  let interaction = { uid: "", cookie: "" };
  /** The walker's step-import key (the import route takes no cookie), and a spare key's id to remove. */
  let importKey = "";
  let spareKeyId = "";
  /** The public id of a second session of the walker's, for the device list's End. */
  let spareSessionId = "";
  let challengeId = "";
  /** The session cookie of a walker with a built-in account, for BUILT_IN_ACCOUNT_ROUTES. */
  let builtInCookie = "";
  /** The session cookie of an operator (a confirmed email in OPERATOR_EMAILS), for the operator routes. */
  let operatorCookie = "";
  /** On PostgreSQL, a connection of the test's own: clearing the throttles and reading every table take one round trip. */
  let postgres: pg.Client | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { migrated: true });
    // Listening, so that the sign-in routes reach the built-in provider (this same server) over HTTP.
    const port = await freePort();
    app = await buildApp(
      testConfig({
        DATABASE_URL: database.url,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        OPERATOR_EMAILS: OPERATOR_EMAIL,
      }),
      {
        logger: false,
        // The draws' scheduled job would change the database between a request and its check.
        drawTickMs: null,
        onRoute: (route: RouteOptions) => {
          for (const method of [route.method].flat()) {
            if (method === "HEAD" || `${method} ${route.url}` in SKIPPED) continue;
            routes.push({ method, url: route.url, schema: (route.schema ?? {}) as Route["schema"] });
          }
        },
      },
    );
    await app.listen({ port, host: "127.0.0.1" });
    walker = await createSignedInWalker(app, "Hostile");
    interaction = await pendingInteraction(`http://127.0.0.1:${port}`);
    png = await photo("png");
    // Something to lose: steps, a manual entry, a group the walker runs.
    const headers = { cookie: walker.cookie, "content-type": "application/json" };
    const today = TEST_TODAY;
    await app.inject({
      method: "POST",
      url: "/api/steps/sync",
      headers,
      payload: { steps: 4321, date: today, source: "device_motion" },
    });
    const group = await app.inject({
      method: "POST",
      url: "/api/groups",
      headers,
      payload: { name: "Hostile walkers", description: "" },
    });
    groupId = group.json().id;
    const form = multipartBody(manualForm({ steps: "1000", date: today }, { bytes: png }));
    const entry = await app.inject({
      method: "POST",
      url: "/api/steps/add-manual-verified",
      headers: { cookie: walker.cookie, "content-type": form.contentType, "idempotency-key": randomUUID() },
      payload: form.body,
    });
    expect(entry.statusCode).toBe(201);
    const keys = app.repositories.stepImportKeys;
    importKey = (await keys.create(walker.user.id, "Hostile iPhone"))?.key ?? "";
    spareKeyId = (await keys.create(walker.user.id, "Spare iPhone"))?.row.id ?? "";
    expect(importKey).not.toBe("");
    const spare = await app.repositories.sessions.open(walker.user.id, 60 * 60_000);
    spareSessionId =
      (await app.repositories.sessions.listForUser(walker.user.id)).find(
        (session) => session.idHash === hashSessionToken(spare.token),
      )?.publicId ?? "";
    expect(spareSessionId).not.toBe("");
    const account = await app.repositories.localAccounts.create({
      email: "built.in@example.org",
      passwordHash: await app.services.passwords.hash("long-walks-2026"),
      firstName: "Built",
      lastName: "In",
    });
    const builtIn = await app.repositories.users.upsertFromIdentity({
      issuer: `http://127.0.0.1:${port}/oidc`,
      subject: account.id,
      email: account.email,
      firstName: "Built",
      lastName: "In",
      pictureUrl: null,
    });
    builtInCookie = `cs_session=${(await app.repositories.sessions.open(builtIn.id, 60 * 60_000)).token}`;
    const operator = await walkerWithEmail(app, OPERATOR_EMAIL, true);
    operatorCookie = operator.cookie;
    // A public challenge the walker is in, for the challenges' routes to reach.
    const challenge = await app.services.challenges.createPublic(
      {
        name: "Hostile hundred",
        description: "",
        charityName: null,
        kind: "total_steps",
        target: 100_000,
        dailyTarget: null,
        startsOn: today,
        endsOn: addDays(today, 6),
      },
      operator.user.id,
    );
    challengeId = challenge.id;
    await app.services.challenges.join(challengeId, walker.user.id);
  });
  afterAll(async () => {
    await postgres?.end();
    await app.close();
    await database.drop();
  });

  it(`answers ${RUNS.toLocaleString("en-GB")} generated requests across all routes with no 5xx and no change when refused`, async () => {
    const apiRoutes = routes.filter(
      (route) => route.url.startsWith("/api/") || route.url.startsWith("/auth/"),
    );
    expect(apiRoutes.length).toBeGreaterThan(25);
    const statuses = new Map<number, number>();
    const perRoute = new Map<string, number>();
    let serverErrors = 0;
    let changedOnRefusal = 0;
    /** Accepted requests that changed the database: the snapshot does see a change. */
    let changedOnSuccess = 0;
    /** Imports that were recorded: the import route is tried for real, not only turned away. */
    let recordedImports = 0;
    /** Requests to the sign-in pages that got past the interaction check to the page's own handler. */
    const reachedPages = new Map<string, number>();
    // The sign-in, sign-up and step-import throttles count refused attempts by design: their counts are
    // cleared after each request, so that they neither stop later ones nor count as a change.
    const throttles = ["sign_in_failures", "sign_up_attempts", "step_import_calls"];
    const tables = await appTables(app.database.db);
    await installChangeCount(
      app.database.db,
      dialect,
      tables.filter((table) => !throttles.includes(table)),
    );
    if (dialect === "postgres") {
      postgres = new pg.Client({ connectionString: database.url });
      await postgres.connect();
    }
    const clearThrottles = throttles.map((table) => `delete from ${table};`).join("\n");
    const readCount = `select n from ${CHANGE_COUNT_TABLE}`;
    /** Clears the throttles, then reads how many rows the app has written so far. */
    const clearedChangeCount = async (): Promise<string> => {
      if (postgres) {
        const results = (await postgres.query(
          `${clearThrottles}\n${readCount}`,
        )) as unknown as pg.QueryResult[];
        return String(results.at(-1)?.rows[0]?.n);
      }
      for (const table of throttles) await app.database.db.deleteFrom(table as never).execute();
      return String((await sql<{ n: number }>`${sql.raw(readCount)}`.execute(app.database.db)).rows[0]?.n);
    };
    let before = await clearedChangeCount();

    const request = fc.constantFrom(...apiRoutes).chain((route) =>
      fc.tuple(
        fc.constant(route),
        requestFor(route, () => ({
          groupId,
          png,
          uid: interaction.uid,
          importKey,
          spareKeyId,
          spareSessionId,
          challengeId,
        })),
      ),
    );

    await fc.assert(
      fc.asyncProperty(
        request,
        fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        async ([route, options], signedIn) => {
          let sessionCookie = BUILT_IN_ACCOUNT_ROUTES.has(route.url)
            ? builtInCookie
            : route.url.startsWith(OPERATOR_ROUTE_PREFIX)
              ? operatorCookie
              : walker.cookie;
          if (SIGN_OUT_ROUTES.has(route.url)) {
            // A sign-out would end the session every other request uses: it ends one of its own.
            const session = await app.repositories.sessions.open(walker.user.id, 60 * 60_000);
            sessionCookie = `cs_session=${session.token}`;
            before = await clearedChangeCount();
          }
          const response = await app.inject({
            ...options,
            headers: {
              "sec-fetch-site": "same-origin",
              // The sign-in pages' own cookie too, so that their forms reach their handlers.
              ...(signedIn ? { cookie: `${sessionCookie}; ${interaction.cookie}` } : {}),
              ...options.headers,
            },
          });
          const key = `${route.method} ${route.url}`;
          perRoute.set(key, (perRoute.get(key) ?? 0) + 1);
          if (
            route.url.startsWith("/auth/interaction/:uid") &&
            !response.body.includes(EXPIRED_INTERACTION_MESSAGE)
          ) {
            reachedPages.set(key, (reachedPages.get(key) ?? 0) + 1);
          }
          if (route.url === APPLE_HEALTH_IMPORT_PATH && response.statusCode === 200) recordedImports++;
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          // What an accepted request set going a few seconds later (a look at the walker's badges and
          // goal after steps arrive) is that request's change: it is made now, before the count.
          await app.services.badges.flush();
          const after = await clearedChangeCount();
          if (response.statusCode >= 500) serverErrors++;
          expect(response.statusCode, `${key}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
          if (response.statusCode >= 400) {
            if (route.url.startsWith("/api/")) {
              expect(response.headers["content-type"], key).toMatch(/^application\/json/);
              const message = response.json().message;
              expect(typeof message, `${key}: ${response.body}`).toBe("string");
              expect(message.length, key).toBeGreaterThan(0);
            }
            if (after !== before) changedOnRefusal++;
            expect(after === before, `${key} answered ${response.statusCode} but changed the database`).toBe(
              true,
            );
          } else if (after !== before) changedOnSuccess++;
          before = after;
        },
      ),
      { numRuns: RUNS },
    );

    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`);
    console.log(
      [
        `hostile input: ${RUNS} requests over ${perRoute.size} of ${apiRoutes.length} routes`,
        `  answers by status: ${byStatus.join(", ")}`,
        `  5xx seen: ${serverErrors}`,
        `  Apple Health imports recorded: ${recordedImports}`,
        `  refused requests that changed the database: ${changedOnRefusal}`,
        `  accepted requests that changed it: ${changedOnSuccess}`,
        `  sign-in page requests that reached their handler: ${[...reachedPages].map(([route, count]) => `${route} ${count}`).join(", ")}`,
        `  left out: ${
          Object.entries(SKIPPED)
            .map(([route, why]) => `${route} (${why})`)
            .join("; ") || "none"
        }`,
      ].join("\n"),
    );
    expect(perRoute.size).toBe(apiRoutes.length);
    expect(recordedImports, "imports recorded").toBeGreaterThan(0);
    expect(changedOnSuccess, "accepted requests seen changing the database").toBeGreaterThan(0);
    // The forms are tried for real, not only turned away for want of a pending sign-in.
    for (const form of ["POST /auth/interaction/:uid/login", "POST /auth/interaction/:uid/signup"]) {
      expect(reachedPages.get(form) ?? 0, form).toBeGreaterThan(0);
    }
  }, 600_000);
});

/**
 * One request for `route`: its path ids, query, headers and body each either plausible (so that the
 * request gets past the other checks) or hostile, and the body sometimes broken on the wire.
 */
function requestFor(
  route: Route,
  fixtures: () => {
    groupId: number;
    png: Buffer;
    uid: string;
    importKey: string;
    spareKeyId: string;
    spareSessionId: string;
    challengeId: string;
  },
): fc.Arbitrary<InjectOptions> {
  const pathParams = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] ?? "");
  const pathArb = fc
    .tuple(
      ...pathParams.map(() =>
        fc.oneof(
          { weight: 2, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: hostileString.map((value) => percentEncoded(value).slice(0, 3_000)) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              "0",
              "-1",
              "1.5",
              "1e3",
              "99999999999999999999",
              "abc",
              "%00",
              "%F0%9F%9A%B6",
            ),
          },
        ),
      ),
    )
    .map((values) => {
      let url = route.url;
      values.forEach((value, index) => {
        const plausible =
          pathParams[index] === "uid"
            ? fixtures().uid
            : pathParams[index] === "month"
              ? TEST_MONTH
              : route.url.startsWith(HEALTH_KEYS_PATH)
                ? fixtures().spareKeyId
                : route.url.startsWith(ACCOUNT_SESSIONS_PATH)
                  ? fixtures().spareSessionId
                  : /^\/api\/(operator\/)?challenges\//.test(route.url)
                    ? fixtures().challengeId
                    : String(fixtures().groupId);
        url = url.replace(`:${pathParams[index]}`, value ?? plausible);
      });
      return url;
    });
  const queryArb = route.schema.querystring
    ? objectArb(route.schema.querystring).map((query) =>
        query && typeof query === "object"
          ? `?${new URLSearchParams(
              Object.entries(query).map(([key, value]) => [
                key,
                typeof value === "string" ? value : (JSON.stringify(value) ?? ""),
              ]),
            ).toString()}`
          : "",
      )
    : fc.constant("");
  const headerArb = fc.record(
    {
      "x-device-id": hostileString,
      "idempotency-key": fc.oneof(hostileString, fc.uuid()),
      // Mostly this origin, so that most requests get past the CSRF check to the route.
      "sec-fetch-site": fc.constantFrom(
        "same-origin",
        "same-origin",
        "same-origin",
        "cross-site",
        "same-site",
        "none",
      ),
      origin: fc.constantFrom("https://evil.example", "null"),
    },
    { requiredKeys: [] },
  );
  // The import route opens with a step-import key only: mostly the walker's, sometimes anything.
  const authorizationArb =
    route.url === APPLE_HEALTH_IMPORT_PATH
      ? fc.oneof(
          { weight: 6, arbitrary: fc.constant({ authorization: `Bearer ${fixtures().importKey}` }) },
          { weight: 1, arbitrary: hostileString.map((value) => ({ authorization: `Bearer ${value}` })) },
          { weight: 1, arbitrary: hostileString.map((value) => ({ authorization: value })) },
          { weight: 1, arbitrary: fc.constant({}) },
        )
      : fc.constant({});
  const isMultipart = route.url === "/api/steps/add-manual-verified";
  const bodyArb: fc.Arbitrary<{ payload?: string | Buffer; headers: Record<string, string> }> = isMultipart
    ? multipartArb(fixtures)
    : route.method === "GET" || (route.method === "DELETE" && !route.schema.body)
      ? fc.constant({ headers: {} })
      : route.url === APPLE_HEALTH_IMPORT_PATH
        ? fc.oneof(
            { weight: 1, arbitrary: jsonBodyArb(route.schema.body) },
            { weight: 3, arbitrary: importBodyArb() },
          )
        : jsonBodyArb(route.schema.body);
  return fc
    .record({
      path: pathArb,
      query: queryArb,
      headers: headerArb,
      body: bodyArb,
      authorization: authorizationArb,
    })
    .map(
      ({ path, query, headers, body, authorization }): InjectOptions => ({
        method: route.method as InjectOptions["method"],
        url: `${path}${query}`,
        headers: { ...headers, ...authorization, ...body.headers },
        ...(body.payload === undefined ? {} : { payload: body.payload }),
      }),
    );
}

/** A JSON object for `schema` with some fields missing, extra or hostile, or another value altogether. */
function objectArb(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const properties = schema?.properties ?? {};
  const fields = Object.entries(properties).map(([name, property]) =>
    fc.oneof(
      { weight: 3, arbitrary: plausibleValue(property).map((value) => [name, value] as const) },
      { weight: 2, arbitrary: hostileValue.map((value) => [name, value] as const) },
      { weight: 1, arbitrary: fc.constant(null) },
    ),
  );
  const object = fc
    .tuple(fc.tuple(...fields), fc.dictionary(hostileString, hostileValue, { maxKeys: 2 }), fc.boolean())
    .map(([entries, extra, withExtra]) => ({
      ...(withExtra ? extra : {}),
      ...Object.fromEntries(entries.filter((entry) => entry !== null)),
    }));
  return fc.oneof({ weight: 6, arbitrary: object }, { weight: 1, arbitrary: hostileValue });
}

function jsonBodyArb(schema: Schema | undefined) {
  const json = objectArb(schema).map((body) => JSON.stringify(body) ?? "null");
  return fc.oneof(
    {
      weight: 8,
      arbitrary: json.map((payload) => ({ payload, headers: { "content-type": "application/json" } })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(json, fc.nat()).map(([payload, cut]) => ({
        payload: payload.slice(0, cut % Math.max(1, payload.length)),
        headers: { "content-type": "application/json" },
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          json,
          fc.constantFrom(
            "text/plain",
            "application/x-www-form-urlencoded",
            "application/xml",
            "multipart/form-data",
            "application/json; charset=utf-16",
            "",
          ),
        )
        .map(([payload, type]) => ({ payload, headers: { "content-type": type } })),
    },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON_BODIES) },
  );
}

/**
 * Bodies no generator makes: empty, cut short, prototype pollution, a huge number, deep nesting and
 * one over the size limit. Made once: the generators are built again for every request, and a
 * megabyte string made each time was half of this file's run.
 */
const MALFORMED_JSON_BODIES = [
  "",
  "{",
  '{"__proto__": {"admin": true}}',
  '{"constructor": {"prototype": {"x": 1}}}',
  `{"steps": ${"9".repeat(400)}}`,
  `[${"[".repeat(5_000)}${"]".repeat(5_000)}]`,
  JSON.stringify({ note: "x".repeat(1_200_000) }),
].map((payload) => ({ payload, headers: { "content-type": "application/json" } }));

/**
 * An import as a Shortcut would send it, or nearly: one day or several, counts as numbers or text,
 * dates in and around the window, sometimes repeated (the schema's generator makes no arrays).
 */
function importBodyArb() {
  const today = TEST_TODAY;
  const date = fc.integer({ min: -32, max: 1 }).map((back) => addDays(today, back));
  const steps = fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 50_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 60_000 }).map(String) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 50_000 }).map((count) => `${count}.0`) },
    { weight: 1, arbitrary: fc.constantFrom(-1, 50_001, 1.5, "abc", "", null) },
  );
  const oneDay = fc.record({ date, steps }, { requiredKeys: ["steps"] });
  const days = fc.record({
    days: fc.oneof(
      { weight: 4, arbitrary: fc.array(fc.record({ date, steps }), { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(fc.record({ date, steps }), { minLength: 0, maxLength: 33 }) },
    ),
  });
  return fc
    .oneof({ weight: 3, arbitrary: oneDay }, { weight: 1, arbitrary: days })
    .map((body) => ({ payload: JSON.stringify(body), headers: { "content-type": "application/json" } }));
}

function multipartArb(fixtures: () => { png: Buffer }) {
  const field = (name: string, plausible: fc.Arbitrary<string>) =>
    fc.oneof(
      { weight: 3, arbitrary: plausible.map((value) => ({ name, value })) },
      { weight: 2, arbitrary: hostileString.map((value) => ({ name, value })) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  const image = fc.oneof(
    { weight: 3, arbitrary: fc.constant("png" as const) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "empty",
        "text",
        "svg",
        "truncated",
        "random",
        "polyglot",
        "as-field",
        "missing",
      ),
    },
  );
  const today = TEST_TODAY;
  return fc
    .record({
      steps: field("steps", fc.constantFrom("1", "2500", "10000", "0", "10001", "-5", "1.5", "1e3")),
      date: field("date", fc.constantFrom(today, "2020-01-01", "2026-02-30", "tomorrow")),
      note: field("note", fc.constantFrom("", "Walked to work", "n".repeat(501))),
      source: field("source", fc.constantFrom("manual_verified", "device_motion")),
      manualEntry: field("manualEntry", fc.constantFrom("true", "false")),
      image,
      random: fc.uint8Array({ minLength: 1, maxLength: 2_048 }),
      cut: fc.option(fc.nat()),
      boundary: fc.constantFrom("keep", "keep", "keep", "keep", "drop", "wrong"),
      extra: fc.option(hostileString.map((value) => ({ name: "bonus", value }))),
    })
    .map(({ steps, date, note, source, manualEntry, image, random, cut, boundary, extra }) => {
      const png = fixtures().png;
      const images: Record<string, Buffer> = {
        png,
        empty: Buffer.alloc(0),
        text: Buffer.from("These are my steps, honest."),
        svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        truncated: png.subarray(0, Math.floor(png.length / 2)),
        random: Buffer.from(random),
        // A PNG with a script appended: recognised as a PNG, stored only as re-encoded pixels.
        polyglot: Buffer.concat([png, Buffer.from("<script>alert(document.cookie)</script>")]),
      };
      const parts = [steps, date, note, source, manualEntry, extra].filter((part) => part !== null);
      if (image === "as-field") parts.push({ name: "justificationImage", value: "not a file" });
      else if (image !== "missing") {
        parts.push({
          name: "justificationImage",
          value: images[image] ?? png,
          filename: image === "svg" ? "proof.svg" : "proof.png",
          contentType: "image/png",
        } as never);
      }
      const { body, contentType } = multipartBody(parts as never);
      const payload = cut === null ? body : body.subarray(0, cut % Math.max(1, body.length));
      const type =
        boundary === "drop"
          ? "multipart/form-data"
          : boundary === "wrong"
            ? "multipart/form-data; boundary=nope"
            : contentType;
      return { payload, headers: { "content-type": type } };
    });
}

/** Starts a sign-in as a browser would, up to the provider's sign-in page: its interaction and cookie. */
async function pendingInteraction(origin: string): Promise<{ uid: string; cookie: string }> {
  const login = await fetch(`${origin}/api/login`, { redirect: "manual" });
  const authorize = await fetch(new URL(login.headers.get("location") ?? "", origin), { redirect: "manual" });
  const uid = /\/auth\/interaction\/([^/?]+)$/.exec(authorize.headers.get("location") ?? "")?.[1];
  const cookie = authorize.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .filter((pair) => pair.startsWith("_interaction"))
    .join("; ");
  if (!uid || !cookie.includes("_interaction=")) throw new Error("The provider did not start a sign-in");
  return { uid, cookie };
}

/** Every UTF-8 byte of `value` percent-encoded (a lone surrogate becomes U+FFFD, as a browser sends it). */
function percentEncoded(value: string): string {
  return [...Buffer.from(value, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
}
