import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  it("still reads ordinary numbers", async () => {
    expect((await auditLog("limit=5&before=10")).statusCode).toBe(200);
    expect((await auditLog("limit=1e1")).statusCode).toBe(200);
  });
});
