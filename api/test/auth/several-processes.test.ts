import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import {
  createTestDatabase,
  dialects,
  freePort,
  newWalker,
  roundRobinProxy,
  signOut,
  signUp,
  TestBrowser,
  type TestDatabase,
  testConfig,
} from "../helper.js";

describe.each(dialects)("two API processes on one database behind a round-robin proxy (%s)", (dialect) => {
  let database: TestDatabase;
  let apps: FastifyInstance[];
  let proxy: ReturnType<typeof roundRobinProxy>;
  let origin: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const [proxyPort, ...appPorts] = [await freePort(), await freePort(), await freePort()];
    origin = `http://127.0.0.1:${proxyPort}`;
    // Started together: both race to create the shared secrets and signing key, and must agree.
    apps = await Promise.all(
      appPorts.map(async (port) => {
        const app = await buildApp(testConfig({ DATABASE_URL: database.url, PUBLIC_URL: origin }), {
          logger: false,
        });
        await app.listen({ port, host: "127.0.0.1" });
        return app;
      }),
    );
    proxy = roundRobinProxy(appPorts);
    await new Promise<void>((resolve) => proxy.server.listen(proxyPort, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy.server.close(resolve));
    await Promise.all(apps.map((app) => app.close()));
    await database.drop();
  });

  it("signs walkers up and out whichever process answers each step", async () => {
    for (let walkerNumber = 0; walkerNumber < 3; walkerNumber++) {
      const browser = new TestBrowser();
      const walker = newWalker();

      const landed = await signUp(browser, origin, walker);
      expect(landed.trail.at(-1)).toBe(`${origin}/`);

      // The session opened through one process is honoured by both.
      for (let i = 0; i < 2; i++) {
        const me = await browser.visit(`${origin}/api/auth/user`);
        expect(me.response.status).toBe(200);
        expect(JSON.parse(me.body)).toMatchObject({ email: walker.email });
      }

      await signOut(browser, origin);
      for (let i = 0; i < 2; i++) {
        expect((await browser.visit(`${origin}/api/auth/user`)).response.status).toBe(401);
      }
    }
    expect(proxy.served.every((count) => count > 10)).toBe(true);
    const secrets = await apps[0]?.database.db.selectFrom("app_secrets").select("name").execute();
    expect(secrets?.map((row) => row.name).sort()).toEqual(["master-secret", "oidc-signing-jwk"]);
  });
});
