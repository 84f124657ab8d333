import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@charity-steps/e2e/support/ports";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { CookieJar } from "tough-cookie";
import { inject } from "vitest";
import { type BuildOptions, buildApp } from "../src/app.js";
import { PASSWORD_HASH_COSTS } from "../src/auth/passwords.js";
import { SESSION_TTL_MS } from "../src/auth/sessions.js";
import { type AppConfig, loadConfig } from "../src/config.js";

export type TestDialect = "sqlite" | "postgres";

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI always sets it). */
export const dialects: TestDialect[] = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new database: a SQLite file in a temporary folder, or a new PostgreSQL database. Empty unless
 * `migrated`, which starts it at the latest schema as a copy of the run's template (migrated once,
 * by global-setup.ts): far cheaper than migrating each, for the tests that are not about migrating.
 */
export async function createTestDatabase(
  dialect: TestDialect,
  { migrated = false }: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "charity-steps-test-"));
    const url = join(dir, "test.db");
    if (migrated) copyFileSync(inject("sqliteTemplate"), url);
    return { url, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `cs_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${migrated ? ` TEMPLATE ${inject("postgresTemplate")}` : ""}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * scrypt's cost in the tests' servers: 2^10 rather than production's 2^15, since the suite signs up
 * and in some hundreds of times. A hash keeps its cost, so every check is the same code either way;
 * the sign-in timing test runs at production's cost.
 */
export const TEST_PASSWORD_HASH_COST = String(PASSWORD_HASH_COSTS.least);

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    LOG_LEVEL: "silent",
    WEB_DIST_DIR: "none",
    DATA_DIR: tmpdir(),
    PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
}

/** What a test may change of how the app is built (its limits, say). */
export type TestBuildOptions = Pick<BuildOptions, "connectionLimits">;

/** The whole app on a fresh database, for inject() tests. */
export async function buildTestApp(
  dialect: TestDialect,
  env: Record<string, string> = {},
  options: TestBuildOptions = {},
): Promise<TestApp> {
  const database = await createTestDatabase(dialect, { migrated: true });
  // The draws' scheduled job would change the database behind a test's back: tests call it themselves.
  const app = await buildApp(testConfig({ DATABASE_URL: database.url, ...env }), {
    ...options,
    logger: false,
    drawTickMs: null,
  });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

/** A port for a server a test starts; see the e2e support for why it is not the kernel's pick. */
export { freePort };

export interface RunningServer extends TestApp {
  origin: string;
}

/**
 * The app listening on a real loopback port. Sign-in needs one: the OIDC client redeems codes over
 * HTTP at the provider, which (built in) is this same server.
 */
export async function startTestServer(
  dialect: TestDialect,
  env: Record<string, string> = {},
  options: TestBuildOptions = {},
): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const testApp = await buildTestApp(dialect, { PUBLIC_URL: origin, ...env }, options);
  await testApp.app.listen({ port, host: "127.0.0.1" });
  return {
    ...testApp,
    origin,
    async close() {
      // The test is done with every connection. fetch sometimes opens one it never sends a request
      // on, and Node counts such a connection as busy, not idle: the close would wait for Node's
      // own 30-second check to drop it.
      const closing = testApp.close();
      testApp.app.server.closeAllConnections();
      await closing;
    },
  };
}

export interface Visit {
  response: Response;
  body: string;
  /** Every URL requested, the redirects included. */
  trail: string[];
}

/** A minimal browser for HTTP tests: a real cookie jar (paths, expiry) and redirects followed by hand. */
export class TestBrowser {
  readonly jar = new CookieJar();

  /** `headers` go with every request (an `x-forwarded-for`, to come from another address). */
  constructor(readonly headers: Record<string, string> = {}) {}

  /** Requests `url` and follows redirects, stopping before any URL that `stopBefore` matches. */
  async visit(url: string, init: RequestInit = {}, stopBefore?: (next: URL) => boolean): Promise<Visit> {
    const trail: string[] = [];
    let current = url;
    let request = init;
    for (let hop = 0; hop < 15; hop++) {
      trail.push(current);
      const cookie = await this.jar.getCookieString(current);
      const headers = new Headers(request.headers);
      for (const [name, value] of Object.entries(this.headers)) headers.set(name, value);
      if (cookie) headers.set("cookie", cookie);
      const response = await fetch(current, { ...request, headers, redirect: "manual" });
      for (const setCookie of response.headers.getSetCookie()) {
        await this.jar.setCookie(setCookie, current, { ignoreError: true });
      }
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.arrayBuffer();
        const next = new URL(location, current);
        if (stopBefore?.(next)) return { response, body: "", trail: [...trail, next.href] };
        current = next.href;
        request = {};
        continue;
      }
      return { response, body: await response.text(), trail };
    }
    throw new Error(`Too many redirects from ${url}`);
  }

  /**
   * Submits the page's form whose action ends with `actionSuffix`, as a browser would: its hidden
   * inputs plus `fields`.
   */
  async submit(
    page: Visit,
    actionSuffix: string,
    fields: Record<string, string> = {},
    stopBefore?: (next: URL) => boolean,
  ): Promise<Visit> {
    const forms = [...page.body.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)];
    const form = forms.find((match) => (match[1] ?? "").endsWith(actionSuffix));
    if (!form) throw new Error(`No form posting to …${actionSuffix} on ${page.trail.at(-1)}`);
    const hidden = [...(form[2] ?? "").matchAll(/<input[^>]*type="hidden"[^>]*>/g)].map((match) => [
      /name="([^"]*)"/.exec(match[0])?.[1] ?? "",
      /value="([^"]*)"/.exec(match[0])?.[1] ?? "",
    ]);
    const target = new URL((form[1] ?? "").replaceAll("&amp;", "&"), page.trail.at(-1));
    return this.visit(
      target.href,
      {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: target.origin,
          "sec-fetch-site": "same-origin",
        },
        body: new URLSearchParams([...hidden, ...Object.entries(fields)]).toString(),
      },
      stopBefore,
    );
  }

  async cookie(origin: string, name: string): Promise<string | undefined> {
    const cookies = await this.jar.getCookies(origin);
    return cookies.find((cookie) => cookie.key === name)?.value;
  }
}

export interface NewWalker {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export function newWalker(overrides: Partial<NewWalker> = {}): NewWalker {
  const id = randomBytes(4).toString("hex");
  return {
    firstName: "Ada",
    lastName: "Walker",
    email: `ada.${id}@example.org`,
    password: "long-walks-2026",
    ...overrides,
  };
}

/**
 * From /api/login through the built-in provider's sign-up form back to the app, signed in (or,
 * with `stopBefore`, up to the redirect it matches).
 */
export async function signUp(
  browser: TestBrowser,
  origin: string,
  walker: NewWalker,
  stopBefore?: (next: URL) => boolean,
): Promise<Visit> {
  const signInPage = await browser.visit(`${origin}/api/login`);
  const signUpLink = /href="(\/auth\/interaction\/[^"]+\/signup)"/.exec(signInPage.body)?.[1];
  if (!signUpLink) {
    throw new Error(`No sign-up link on ${signInPage.trail.at(-1)}: ${signInPage.response.status}`);
  }
  const signUpPage = await browser.visit(new URL(signUpLink, signInPage.trail.at(-1)).href);
  return browser.submit(signUpPage, "/signup", { ...walker }, stopBefore);
}

/** A walker and an open session made directly in the database, for tests that are not about sign-in. */
export async function createSignedInWalker(app: FastifyInstance, name = "Test") {
  const user = await app.repositories.users.upsertFromIdentity({
    issuer: "https://issuer.test",
    subject: randomBytes(8).toString("hex"),
    email: `${name.toLowerCase()}.${randomBytes(3).toString("hex")}@example.org`,
    firstName: name,
    lastName: "Walker",
    pictureUrl: null,
  });
  const session = await app.repositories.sessions.open(user.id, SESSION_TTL_MS);
  return { user, token: session.token, cookie: `cs_session=${session.token}` };
}

/** /api/logout, then the provider's sign-out confirmation that its page submits by script. */
export async function signOut(browser: TestBrowser, origin: string): Promise<Visit> {
  const page = await browser.visit(`${origin}/api/logout`);
  return page.body.includes('id="op.logoutForm"') ? browser.submit(page, "/oidc/session/end/confirm") : page;
}

export async function signIn(
  browser: TestBrowser,
  origin: string,
  email: string,
  password: string,
): Promise<Visit> {
  const signInPage = await browser.visit(`${origin}/api/login`);
  return browser.submit(signInPage, "/login", { email, password });
}

/** `text` as the sign-in pages write it into HTML. */
export function escaped(text: string): string {
  return text.replaceAll("'", "&#39;");
}

/** A reverse proxy without sticky sessions: each request goes to the next API process in turn. */
export function roundRobinProxy(ports: number[]): { server: Server; served: number[] } {
  const served = ports.map(() => 0);
  let next = 0;
  const server = createHttpServer((incoming, outgoing) => {
    const index = next++ % ports.length;
    served[index] = (served[index] ?? 0) + 1;
    const forward = httpRequest(
      {
        host: "127.0.0.1",
        port: ports[index],
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on("error", () => outgoing.destroy());
    incoming.pipe(forward);
  });
  return { server, served };
}
