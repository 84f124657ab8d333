import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuildOptions, buildApp } from "../../src/app.js";
import { CONNECTION_LIMITS } from "../../src/plugins/connection-limits.js";
import { JSON_BODY_LIMIT, JSON_MAX_DEPTH, TOO_DEEP_MESSAGE } from "../../src/plugins/json-body.js";
import { FORM_BODY_LIMIT, NO_BODY_MESSAGE } from "../../src/plugins/request-bodies.js";
import {
  createSignedInWalker,
  createTestDatabase,
  dialects,
  type TestDatabase,
  testConfig,
} from "../helper.js";

/** Limits short enough to be seen within a test; the production ones are the same machinery. */
const SHORT_LIMITS: BuildOptions["connectionLimits"] = {
  headersTimeoutMs: 600,
  requestTimeoutMs: 1_500,
  idleTimeoutMs: 800,
  checkIntervalMs: 100,
  connectionsPerClient: 4,
};

/** Well above every limit above, so that a busy machine does not fail the test; far below "for ever". */
const BOUND_MS = 8_000;

interface RawConnection {
  socket: Socket;
  /** Everything the server sent, once it has closed the connection (or after BOUND_MS, whichever is first). */
  closed: Promise<{ text: string; closedByServer: boolean }>;
  /** The first bytes of an answer, as soon as any arrive. */
  firstAnswer: Promise<string>;
}

function rawConnection(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1" });
    let text = "";
    let answered: (value: string) => void = () => {};
    const firstAnswer = new Promise<string>((done) => {
      answered = done;
    });
    const closed = new Promise<{ text: string; closedByServer: boolean }>((done) => {
      const timer = setTimeout(() => {
        socket.destroy();
        done({ text, closedByServer: false });
      }, BOUND_MS);
      socket.on("data", (chunk) => {
        text += chunk.toString("latin1");
        answered(text);
      });
      socket.on("error", () => {});
      socket.on("close", () => {
        clearTimeout(timer);
        done({ text, closedByServer: true });
      });
    });
    socket.once("connect", () => resolve({ socket, closed, firstAnswer }));
    socket.once("error", reject);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const messageOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).message;

/** Waits until the server has taken the connection in (its count is what the cap looks at). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

async function listening(
  database: TestDatabase,
  env: Record<string, string> = {},
  connectionLimits = SHORT_LIMITS,
) {
  const app = await buildApp(testConfig({ DATABASE_URL: database.url, ...env }), {
    logger: false,
    connectionLimits,
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, port: (app.server.address() as AddressInfo).port };
}

describe.each(dialects)("slow, unwanted and oversize bodies, on a listening server (%s)", (dialect) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let port: number;
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { migrated: true });
    ({ app, port } = await listening(database));
    ({ cookie } = await createSignedInWalker(app));
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it.each(["/auth/interaction/abc/login", "/oidc/token"])(
    "closes a connection whose body stops arriving, instead of holding it (%s)",
    async (path) => {
      // A form within the form limit, so that the server starts to read it; then silence.
      const connection = await rawConnection(port);
      connection.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\n` +
          "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 40000\r\n\r\n" +
          "email=".padEnd(39_000, "x"),
      );
      const { closedByServer } = await connection.closed;
      expect(closedByServer).toBe(true);
    },
  );

  it("answers 408 and closes a request whose body trickles in past the request timeout", async () => {
    const connection = await rawConnection(port);
    connection.socket.write(
      "POST /auth/interaction/abc/login HTTP/1.1\r\nHost: localhost\r\n" +
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 40000\r\n\r\nemail=",
    );
    // One byte every 100 ms: never idle, never finished.
    const trickle = setInterval(() => connection.socket.write("x"), 100);
    const { text, closedByServer } = await connection.closed;
    clearInterval(trickle);
    expect(closedByServer).toBe(true);
    expect(statusOf(text)).toBe(408);
    expect(messageOf(text)).toBe("The request took too long to arrive.");
  });

  it("answers an address too long for the server's headers with 431 and a sentence, and closes", async () => {
    const connection = await rawConnection(port);
    connection.socket.write(
      `GET /api/steps/today?${"x".repeat(100_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    const { text, closedByServer } = await connection.closed;
    expect(closedByServer).toBe(true);
    expect(statusOf(text)).toBe(431);
    expect(messageOf(text)).toBe("The request's address and headers are too long: at most 16 KB together.");
  });

  it("answers bytes that are not HTTP with 400 and a sentence, and closes", async () => {
    const connection = await rawConnection(port);
    connection.socket.write("HELLO THERE\r\n\r\n");
    const { text, closedByServer } = await connection.closed;
    expect(closedByServer).toBe(true);
    expect(statusOf(text)).toBe(400);
    expect(messageOf(text)).toBe("The request could not be read as HTTP.");
  });

  it("closes a connection whose headers never end", async () => {
    const connection = await rawConnection(port);
    connection.socket.write("GET /api/health HTTP/1.1\r\nHost: localhost\r\n");
    const trickle = setInterval(() => connection.socket.write("X-Slow: 1\r\n"), 100);
    const { closedByServer } = await connection.closed;
    clearInterval(trickle);
    expect(closedByServer).toBe(true);
  });

  it("refuses a body larger than the route takes on its declared length, unread, and closes", async () => {
    // The attack as reported: 999,000 of a declared 1,000,000 bytes, then nothing.
    for (const [path, type] of [
      ["/auth/interaction/abc/login", "application/x-www-form-urlencoded"],
      ["/auth/interaction/abc/login", "application/json"],
    ]) {
      const connection = await rawConnection(port);
      connection.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: 1000000\r\n\r\n`,
      );
      connection.socket.write("x".repeat(999_000));
      const { text, closedByServer } = await connection.closed;
      expect(closedByServer).toBe(true);
      expect(statusOf(text), type).toBe(413);
      expect(typeof messageOf(text)).toBe("string");
    }
  });

  it("answers an unknown address, and a request that is not signed in, before reading the body", async () => {
    for (const [path, status] of [
      ["/api/no-such-thing", 404],
      ["/no-such-page", 404],
      ["/api/steps/sync", 401],
      ["/api/groups", 401],
    ] as const) {
      const connection = await rawConnection(port);
      // A small JSON body declared, and never sent: the answer cannot wait for it.
      connection.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n[[`,
      );
      const answer = await Promise.race([connection.firstAnswer, connection.closed.then(({ text }) => text)]);
      expect(statusOf(answer), path).toBe(status);
      expect(typeof messageOf(answer)).toBe("string");
      expect((await connection.closed).closedByServer).toBe(true);
    }
  });

  it("refuses a body on a route that takes none, before reading it", async () => {
    for (const [method, path] of [
      ["POST", "/api/daily-reset"],
      ["POST", "/api/monthly-reset"],
      ["GET", "/api/health"],
      ["DELETE", "/api/groups/1"],
    ]) {
      const connection = await rawConnection(port);
      connection.socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\n` +
          "Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{",
      );
      const answer = await Promise.race([connection.firstAnswer, connection.closed.then(({ text }) => text)]);
      expect(statusOf(answer), `${method} ${path}`).toBe(413);
      expect(messageOf(answer)).toBe(NO_BODY_MESSAGE);
      expect((await connection.closed).closedByServer).toBe(true);
    }
    // Without a body the same routes answer as before.
    const reset = await app.inject({ method: "POST", url: "/api/daily-reset", headers: { cookie } });
    expect(reset.statusCode).toBe(200);
    const emptyJson = await app.inject({
      method: "POST",
      url: "/api/daily-reset",
      headers: { cookie, "content-type": "application/json" },
      payload: "",
    });
    expect(emptyJson.statusCode).toBe(200);
  });

  /** A new group's JSON, as the walker's page posts it. */
  const postGroup = (payload: string) =>
    app.inject({
      method: "POST",
      url: "/api/groups",
      headers: { cookie, "content-type": "application/json" },
      payload,
    });

  it("takes JSON bodies of kilobytes only, nested a few levels at most", async () => {
    const big = await postGroup(JSON.stringify({ name: "Walkers", description: "x".repeat(100_000) }));
    expect(big.statusCode).toBe(413);
    expect(typeof big.json().message).toBe("string");

    const deep = `${"[".repeat(JSON_MAX_DEPTH + 1)}${"]".repeat(JSON_MAX_DEPTH + 1)}`;
    const tooDeep = await postGroup(deep);
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json()).toEqual({ message: TOO_DEEP_MESSAGE });
    // Brackets inside strings are text, not nesting.
    const bracketsInText = await postGroup(
      JSON.stringify({ name: "[[[[[[[[[[[[[[[[[[[[[[[[", description: "" }),
    );
    expect(bracketsInText.statusCode).toBe(201);

    const group = await postGroup(JSON.stringify({ name: "Hostile walkers", description: "ü".repeat(500) }));
    expect(group.statusCode).toBe(201);
  });

  it("reads a JSON body of 16 KB to the byte, and refuses one byte more unread (413)", async () => {
    expect(JSON_BODY_LIMIT).toBe(16 * 1024);
    /** A group whose JSON is exactly `bytes` long: its description pads it (and is too long for the schema). */
    const ofLength = (bytes: number) => {
      const frame = JSON.stringify({ name: "Walkers", description: "" });
      return JSON.stringify({ name: "Walkers", description: "x".repeat(bytes - frame.length) });
    };
    const atLimit = ofLength(JSON_BODY_LIMIT);
    expect(Buffer.byteLength(atLimit)).toBe(JSON_BODY_LIMIT);
    // Read and judged by the schema: a description of 16 KB is too long for a group.
    const read = await postGroup(atLimit);
    expect(read.statusCode).toBe(400);
    expect(read.json().message).toMatch(/description/);
    const over = await postGroup(ofLength(JSON_BODY_LIMIT + 1));
    expect(over.statusCode).toBe(413);
    expect(typeof over.json().message).toBe("string");
  });

  it("reads a sign-in form of 64 KB to the byte, and refuses one byte more unread (413)", async () => {
    expect(FORM_BODY_LIMIT).toBe(64 * 1024);
    const form = (bytes: number) => {
      const frame = "email=ada%40example.org&password=";
      return `${frame}${"x".repeat(bytes - frame.length)}`;
    };
    const post = (payload: string) =>
      app.inject({
        method: "POST",
        url: "/auth/interaction/no-such-interaction/login",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload,
      });
    // Read, then turned away by the interaction check (not by its size).
    const read = await post(form(FORM_BODY_LIMIT));
    expect(read.statusCode).not.toBe(413);
    expect(read.statusCode).toBeLessThan(500);
    const over = await post(form(FORM_BODY_LIMIT + 1));
    expect(over.statusCode).toBe(413);
  });
});

/**
 * The identity provider's endpoints read their own bodies, past Fastify's parsers. With the
 * production request timeout (two minutes), only a connection closed once answered is closed within
 * the test's bound.
 */
describe.each(dialects)("bodies sent to the identity provider's endpoints (%s)", (dialect) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { migrated: true });
    ({ app, port } = await listening(database, {}, { checkIntervalMs: 100 }));
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it.each(["/oidc/token", "/oidc/auth", "/oidc/session/end/confirm"])(
    "%s: a declared million bytes, 20 KB sent, is refused unread (413) and the connection closed at once",
    async (path) => {
      const connection = await rawConnection(port);
      connection.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\n` +
          "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000000\r\n\r\n",
      );
      connection.socket.write("x".repeat(20_000));
      const started = performance.now();
      const { text, closedByServer } = await connection.closed;
      expect(closedByServer).toBe(true);
      expect(performance.now() - started).toBeLessThan(BOUND_MS);
      expect(statusOf(text)).toBe(413);
      expect(typeof messageOf(text)).toBe("string");
    },
  );
});

/** The production timeouts (held connections must stay open for the test), with a small cap. */
const SMALL_CAP: BuildOptions["connectionLimits"] = { connectionsPerClient: 4 };

describe("the per-client connection cap", () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite", { migrated: true });
    ({ app, port } = await listening(database, {}, SMALL_CAP));
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it("caps the connections one client holds at once, and frees a place when one closes", async () => {
    const held: RawConnection[] = [];
    for (let i = 0; i < 4; i++) held.push(await rawConnection(port));
    await settle();
    const extra = await rawConnection(port);
    expect((await extra.closed).closedByServer).toBe(true);
    expect((await extra.closed).text).toBe("");

    held[0]?.socket.destroy();
    // The server may see the close a moment after the client: a place frees up within the bound.
    let answer = "";
    const deadline = Date.now() + BOUND_MS;
    while (statusOf(answer) !== 200 && Date.now() < deadline) {
      await settle();
      const next = await rawConnection(port);
      next.socket.write("GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
      answer = (await next.closed).text;
    }
    expect(statusOf(answer)).toBe(200);
    for (const connection of held) connection.socket.destroy();
  });

  it("closes an idle kept-alive connection after its keep-alive time (72 s in production)", async () => {
    expect(CONNECTION_LIMITS.keepAliveTimeoutMs).toBe(72_000);
    expect(app.server.keepAliveTimeout).toBe(72_000);
    const quick = await listening(database, {}, { ...SMALL_CAP, keepAliveTimeoutMs: 1_000 });
    try {
      const connection = await rawConnection(quick.port);
      connection.socket.write("GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n");
      expect(statusOf(await connection.firstAnswer)).toBe(200);
      // Answered and kept alive (not closed with the answer); then nothing more is asked, and the
      // server lets it go. The bound is loose: a busy machine reads the answer late.
      const started = performance.now();
      const { closedByServer } = await connection.closed;
      expect(closedByServer).toBe(true);
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      await quick.app.close();
    }
  });

  it.each([
    ["a trusted proxy's own address", "127.0.0.1"],
    ["anyone with TRUST_PROXY=true, where only the proxy can reach the API", "true"],
  ])("does not cap %s", async (_who, trustProxy) => {
    const proxied = await listening(database, { TRUST_PROXY: trustProxy }, SMALL_CAP);
    try {
      const held: RawConnection[] = [];
      for (let i = 0; i < 8; i++) held.push(await rawConnection(proxied.port));
      await settle();
      const last = held.at(-1) as RawConnection;
      last.socket.write("GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n");
      expect(statusOf(await last.firstAnswer)).toBe(200);
      for (const connection of held) connection.socket.destroy();
    } finally {
      await proxied.app.close();
    }
  });
});
