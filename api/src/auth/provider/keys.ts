import { generateKeyPairSync, randomUUID } from "node:crypto";
import type { JWK } from "oidc-provider";
import type { AppSecretsRepository } from "../../repositories/app-secrets.js";

/** The provider's ID-token signing key, made once and shared through the database by every process. */
export async function loadSigningKey(secrets: AppSecretsRepository): Promise<JWK> {
  const stored = await secrets.getOrCreate("oidc-signing-jwk", () => {
    // The key is made as a JWK by the generating job itself. Made as a KeyObject and exported
    // afterwards, a garbage collection during the export could free the finished job, whose
    // destructor waits for the lock the export holds on the same thread: Node 20 then hung for good
    // at start-up (seen once, on a bench server, with a native stack to show it).
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      // Node's own types list only PEM and DER here; JWK is documented (`keyObject.export`) and made.
      publicKeyEncoding: { type: "spki", format: "jwk" as "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "jwk" as "pem" },
    }) as unknown as { privateKey: JsonWebKey };
    return JSON.stringify({
      ...privateKey,
      kid: randomUUID(),
      alg: "RS256",
      use: "sig",
    });
  });
  return JSON.parse(stored) as JWK;
}
