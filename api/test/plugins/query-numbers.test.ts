import Fastify from "fastify";
import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorsPlugin } from "../../src/plugins/errors.js";
import { validationPlugin } from "../../src/plugins/validation.js";
import { buildTestApp, dialects, type TestApp } from "../helper.js";
import { OPERATOR_EMAIL, OPERATOR_ENV, walkerWithEmail } from "../support/operators.js";

describe.each(dialects)("numbers in query strings (%s)", (dialect) => {
  let testApp: TestApp;
  let cookie: string;

  beforeAll(async () => {
    testApp = await buildTestApp(dialect, OPERATOR_ENV);
    ({ cookie } = await walkerWithEmail(testApp.app, OPERATOR_EMAIL, true));
  });
  afterAll(() => testApp.close());

  const auditLog = (query: string) =>
    testApp.app.inject({ method: "GET", url: `/api/operator/audit-log?${query}`, headers: { cookie } });

  it("refuses text too large to be a number with a 400 that says so, never a 500 or a pass", async () => {
    for (const query of ["limit=1e309", "before=1e309", "limit=-1e309", "before=Infinity"]) {
      const response = await auditLog(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toMatch(/^(limit|before) must be/);
    }
  });

  it("reads a number written in digits, and refuses one written any other way by name", async () => {
    expect((await auditLog("limit=5&before=10")).statusCode).toBe(200);
    // Each of these is a number to JavaScript's Number(), which Ajv's coercion uses.
    const refused: [query: string, message: string][] = [
      ["limit=1e1", "limit must be a whole number."],
      ["limit=0x10", "limit must be a whole number."],
      ["before=0b11", "before must be a whole number."],
      ["limit=%205", "limit must be a whole number."],
      ["limit=%2B5", "limit must be a whole number."],
      ["limit=5.0", "limit must be a whole number."],
    ];
    for (const [query, message] of refused) {
      const response = await auditLog(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toBe(message);
    }
  });

  it("tells a query that gives one field twice to give it once, numbers and text alike", async () => {
    const { cookie: walker } = await walkerWithEmail(testApp.app, "twice@example.com", true);
    for (const [url, message] of [
      ["/api/operator/audit-log?limit=5&limit=6", "limit must be given once."],
      ["/api/notifications?before=a&before=b", "before must be given once."],
      ["/api/summary/week?start=2026-11-30&start=2026-11-23", "start must be given once."],
    ]) {
      const response = await testApp.app.inject({
        method: "GET",
        url: url ?? "",
        headers: { cookie: url?.startsWith("/api/operator") ? cookie : walker },
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toBe(message);
    }
  });

  it("holds every route to it: a walker's notifications and an operator's review pages", async () => {
    const { cookie: walker } = await walkerWithEmail(testApp.app, "digits@example.com", true);
    const notifications = (query: string) =>
      testApp.app.inject({ method: "GET", url: `/api/notifications?${query}`, headers: { cookie: walker } });
    expect((await notifications("limit=3")).statusCode).toBe(200);
    const hex = await notifications("limit=0x3");
    expect(hex.statusCode).toBe(400);
    expect(hex.json().message).toBe("limit must be a whole number.");
    const reviews = await testApp.app.inject({
      method: "GET",
      url: "/api/operator/reviews/walkers?page=1e0",
      headers: { cookie },
    });
    expect(reviews.statusCode).toBe(400);
    expect(reviews.json().message).toBe("page must be a whole number.");
  });
});

describe("numbers in a query, on a route of its own", () => {
  it("holds a field that is a union of numbers to digits too", async () => {
    const app = Fastify({ logger: false });
    await app.register(validationPlugin);
    await app.register(errorsPlugin);
    app.get(
      "/n",
      {
        schema: {
          querystring: Type.Object({ n: Type.Union([Type.Integer({ maximum: 9 }), Type.Literal(100)]) }),
        },
      },
      async (request) => request.query,
    );
    expect((await app.inject({ method: "GET", url: "/n?n=100" })).json()).toEqual({ n: 100 });
    const hex = await app.inject({ method: "GET", url: "/n?n=0x64" });
    expect(hex.statusCode).toBe(400);
    expect(hex.json().message).toBe("n must be a number.");
    await app.close();
  });
});
