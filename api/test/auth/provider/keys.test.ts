import { createPrivateKey, createPublicKey, type JsonWebKey, sign, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadSigningKey } from "../../../src/auth/provider/keys.js";
import type { AppSecretsRepository } from "../../../src/repositories/app-secrets.js";

/** The repository's promise, kept in memory: made once, then the stored value (app_secrets' own tests cover the table). */
function secretsInMemory(): AppSecretsRepository & { made: number } {
  const stored = new Map<string, string>();
  const secrets = {
    made: 0,
    async getOrCreate(name: string, make: () => string) {
      if (!stored.has(name)) {
        secrets.made += 1;
        stored.set(name, make());
      }
      return stored.get(name) as string;
    },
  };
  return secrets as unknown as AppSecretsRepository & { made: number };
}

describe("the provider's signing key", () => {
  it("is a 2048-bit RSA private JWK that signs ID tokens, named and kept", async () => {
    const secrets = secretsInMemory();
    const jwk = await loadSigningKey(secrets);
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

    expect(await loadSigningKey(secrets)).toEqual(jwk);
    expect(secrets.made).toBe(1);
  });
});
