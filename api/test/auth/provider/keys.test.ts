import { createPrivateKey, createPublicKey, type JsonWebKey, sign, verify } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.js";
import { loadSigningKey } from "../../../src/auth/provider/keys.js";
import { createTestDatabase, dialects, type TestDatabase, testConfig } from "../../helper.js";

describe.each(dialects)("the provider's signing key (%s)", (dialect) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    // A database that has never served (not the migrated template, which holds a key already).
    database = await createTestDatabase(dialect);
    app = await buildApp(testConfig({ DATABASE_URL: database.url }), { logger: false, drawTickMs: null });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it("is a 2048-bit RSA private JWK that signs ID tokens, made once at start and kept", async () => {
    const secrets = app.repositories.appSecrets;
    const stored = await secrets.getOrCreate("oidc-signing-jwk", () => {
      throw new Error("the app made no signing key as it started");
    });
    const jwk = await loadSigningKey(secrets);
    expect(JSON.parse(stored)).toEqual(jwk);
    expect(jwk).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(jwk.kid).toMatch(/^[0-9a-f-]{36}$/);
    const privateKey = createPrivateKey({ key: jwk as unknown as JsonWebKey, format: "jwk" });
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const signature = sign("sha256", Buffer.from("an ID token"), privateKey);
    const publicKey = createPublicKey({
      key: { kty: "RSA", n: jwk.n, e: jwk.e } as unknown as JsonWebKey,
      format: "jwk",
    });
    expect(verify("sha256", Buffer.from("an ID token"), publicKey, signature)).toBe(true);
  });
});
