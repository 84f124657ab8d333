import { generateKeyPairSync, randomUUID } from "node:crypto";
import type { JWK } from "oidc-provider";
import type { AppSecretsRepository } from "../../repositories/app-secrets.js";

/** The provider's ID-token signing key, made once and shared through the database by every process. */
export async function loadSigningKey(secrets: AppSecretsRepository): Promise<JWK> {
  const stored = await secrets.getOrCreate("oidc-signing-jwk", () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    return JSON.stringify({
      ...privateKey.export({ format: "jwk" }),
      kid: randomUUID(),
      alg: "RS256",
      use: "sig",
    });
  });
  return JSON.parse(stored) as JWK;
}
