import {
  OPERATOR_API_PREFIX,
  OPERATOR_POSTAL_ENTRIES_PATH,
  OPERATOR_REVIEWS_PATH,
} from "@charity-steps/shared-types";
import type { RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../../src/app.js";
import { createSignedInWalker, createTestDatabase, type TestDatabase, testConfig } from "../../../helper.js";
import {
  OPERATOR_EMAIL,
  OPERATOR_ENV,
  UNCONFIRMED_OPERATOR_EMAIL,
  walkerWithEmail,
} from "../../../support/operators.js";

interface Operation {
  requestBody?: { content: Record<string, { schema: unknown }> };
  parameters?: { in: string; name: string }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** Fastify's ":id" in a path is OpenAPI's "{id}". */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, "{$1}");

describe("GET /api/openapi.json", () => {
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const apiRoutes: { method: string; url: string; schema: RouteOptions["schema"] }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase("sqlite", { migrated: true });
    app = await buildApp(testConfig({ DATABASE_URL: database.url, ...OPERATOR_ENV }), {
      logger: false,
      onRoute: (route) => {
        for (const method of [route.method].flat()) {
          if (method === "HEAD" || !route.url.startsWith("/api/") || route.url === "/api/openapi.json")
            continue;
          apiRoutes.push({ method: method.toLowerCase(), url: route.url, schema: route.schema });
        }
      },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it("answers anyone, signed in or not, with an OpenAPI document", async () => {
    const response = await app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/application\/json/);
    expect(response.json<OpenApiDocument>().openapi).toMatch(/^3\./);
  });

  it("lists every API route with the request and response schemas it declares, to an operator", async () => {
    const { cookie } = await walkerWithEmail(app, OPERATOR_EMAIL, true);
    const document = (
      await app.inject({ method: "GET", url: "/api/openapi.json", headers: { cookie } })
    ).json<OpenApiDocument>();
    expect(apiRoutes.length).toBeGreaterThan(25);
    for (const route of apiRoutes) {
      const operation = document.paths[openApiPath(route.url)]?.[route.method];
      expect(operation, `${route.method.toUpperCase()} ${route.url}`).toBeDefined();
      const schema = (route.schema ?? {}) as {
        body?: unknown;
        params?: unknown;
        response?: Record<string, unknown>;
      };
      for (const status of Object.keys(schema.response ?? {})) {
        expect(operation?.responses[status], `${route.url} answers ${status}`).toBeDefined();
      }
      if (schema.body) expect(operation?.requestBody, `${route.url} body`).toBeDefined();
      if (schema.params) expect(operation?.parameters?.some((p) => p.in === "path")).toBe(true);
    }
    // One figure a reader would look for: the sync call's body names its fields.
    const sync = document.paths["/api/steps/sync"]?.post;
    expect(JSON.stringify(sync?.requestBody)).toContain('"steps"');
    expect(JSON.stringify(sync?.responses["200"])).toContain('"monthlySteps"');
  });

  it("shows the operators' routes to nobody else: signed out, a walker, an unconfirmed operator's email", async () => {
    const walker = await createSignedInWalker(app);
    const unconfirmed = await walkerWithEmail(app, UNCONFIRMED_OPERATOR_EMAIL, false);
    const operator = await walkerWithEmail(app, OPERATOR_EMAIL, true);
    const operatorPaths = async (cookie?: string) => {
      const response = await app.inject({
        method: "GET",
        url: "/api/openapi.json",
        headers: cookie ? { cookie } : {},
      });
      expect(response.statusCode).toBe(200);
      // Who asks changes the answer: no shared cache keeps it.
      expect(response.headers["cache-control"]).toContain("private");
      const paths = Object.keys(response.json<OpenApiDocument>().paths);
      expect(paths).toContain("/api/steps/sync");
      return paths.filter((path) => path.startsWith(OPERATOR_API_PREFIX));
    };
    expect(await operatorPaths()).toEqual([]);
    expect(await operatorPaths(walker.cookie)).toEqual([]);
    expect(await operatorPaths(unconfirmed.cookie)).toEqual([]);
    expect(await operatorPaths("cs_session=made-up")).toEqual([]);
    expect(await operatorPaths(operator.cookie)).toEqual(
      expect.arrayContaining([
        OPERATOR_REVIEWS_PATH,
        OPERATOR_POSTAL_ENTRIES_PATH,
        "/api/operator/draws/{month}",
      ]),
    );
  });

  it("leaves out what is not the API (the identity provider's pages)", async () => {
    const document = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json<OpenApiDocument>();
    expect(Object.keys(document.paths).every((path) => path.startsWith("/api/"))).toBe(true);
  });
});
