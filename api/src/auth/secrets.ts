import { createHmac, randomBytes } from "node:crypto";
import type { AppConfig } from "../config.js";
import type { AppSecretsRepository } from "../repositories/app-secrets.js";

/**
 * The deployment's master secret: SESSION_SECRET when set, else one made on first boot and kept in
 * the database, so that every process of one deployment agrees on it without configuration.
 */
export async function loadMasterSecret(config: AppConfig, secrets: AppSecretsRepository): Promise<string> {
  return config.sessionSecret ?? secrets.getOrCreate("master-secret", () => randomBytes(32).toString("hex"));
}

/** A secret for one purpose, derived from the master secret so that the purposes never share a key. */
export function deriveSecret(master: string, purpose: string): string {
  return createHmac("sha256", master).update(purpose).digest("base64url");
}
