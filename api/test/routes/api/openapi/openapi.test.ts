import type { RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../../src/app.js";
import { createTestDatabase, type TestDatabase, testConfig } from "../../../helper.js";

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
    app = await buildApp(testConfig({ DATABASE_URL: database.url }), {
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

  it("lists every API route with the request and response schemas it declares", async () => {
    const document = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json<OpenApiDocument>();
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

  it("leaves out what is not the API (the identity provider's pages)", async () => {
    const document = (await app.inject({ method: "GET", url: "/api/openapi.json" })).json<OpenApiDocument>();
    expect(Object.keys(document.paths).every((path) => path.startsWith("/api/"))).toBe(true);
  });
});
