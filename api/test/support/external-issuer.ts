import type { FastifyInstance } from "fastify";
import { buildApp, buildIdentityServer } from "../../src/app.js";
import { createTestDatabase, freePort, type TestDatabase, type TestDialect, testConfig } from "../helper.js";

/** The client the app is registered as at an issuer it does not run. */
export const EXTERNAL_CLIENT = {
  id: "charity-steps-external",
  secret: "a-client-secret-known-to-both-sides-0123456789",
};

/** The app and the identity provider it signs walkers in with, each listening on its own port. */
export interface AppWithExternalIssuer {
  app: FastifyInstance;
  identityServer: FastifyInstance;
  appOrigin: string;
  issuerOrigin: string;
  /** Closes both servers and drops both databases. */
  close(): Promise<void>;
}

/**
 * The app pointed at an identity provider it does not run: a second, separately started instance of
 * the built-in provider, on its own port and database, with the app registered as its client.
 */
export async function startAppWithExternalIssuer(dialect: TestDialect): Promise<AppWithExternalIssuer> {
  // What has started so far, undone last first: a setup that fails leaves no server listening and
  // no database behind.
  const undo: (() => Promise<unknown>)[] = [];
  const close = async () => {
    const failures: unknown[] = [];
    for (const step of undo.reverse()) await step().catch((error: unknown) => failures.push(error));
    undo.length = 0;
    if (failures.length > 0) throw failures[0];
  };
  try {
    const [issuerPort, appPort] = [await freePort(), await freePort()];
    const issuerOrigin = `http://127.0.0.1:${issuerPort}`;
    const appOrigin = `http://127.0.0.1:${appPort}`;
    const databases = await Promise.allSettled([
      createTestDatabase(dialect, { migrated: true }),
      createTestDatabase(dialect, { migrated: true }),
    ]);
    for (const made of databases) if (made.status === "fulfilled") undo.push(() => made.value.drop());
    const [issuerDb, appDb] = databases.map((made) => {
      if (made.status === "rejected") throw made.reason;
      return made.value;
    }) as [TestDatabase, TestDatabase];
    const identityServer = await buildIdentityServer(
      testConfig({ DATABASE_URL: issuerDb.url, PUBLIC_URL: issuerOrigin }),
      [
        {
          client_id: EXTERNAL_CLIENT.id,
          client_secret: EXTERNAL_CLIENT.secret,
          redirect_uris: [`${appOrigin}/api/callback`],
          post_logout_redirect_uris: [`${appOrigin}/`],
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      { logger: false },
    );
    undo.push(() => identityServer.close());
    await identityServer.listen({ port: issuerPort, host: "127.0.0.1" });
    const app = await buildApp(
      testConfig({
        DATABASE_URL: appDb.url,
        PUBLIC_URL: appOrigin,
        OIDC_ISSUER_URL: `${issuerOrigin}/oidc`,
        OIDC_CLIENT_ID: EXTERNAL_CLIENT.id,
        OIDC_CLIENT_SECRET: EXTERNAL_CLIENT.secret,
      }),
      { logger: false },
    );
    undo.push(() => app.close());
    await app.listen({ port: appPort, host: "127.0.0.1" });
    return { app, identityServer, appOrigin, issuerOrigin, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
