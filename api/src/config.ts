import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { KNOWN_DRAND_CHAINS } from "@charity-steps/prize-draw";
import { PASSWORD_HASH_COSTS } from "./auth/passwords.js";
import { ConfigError } from "./config/config-error.js";
import { type Environment, isPostgresUrl, readEnvironment } from "./config/environment.js";

export { ConfigError };

/** The drand chain a month's draw mixes in, pinned by its hash and public key. */
export interface DrawBeaconConfig {
  /** The chain's base URL, e.g. `https://api.drand.sh/{chain hash}`; `/info` and `/public/{round}` are appended. */
  url: string;
  /** Lower-case hex. */
  chainHash: string;
  /** Lower-case hex, as the chain's `/info` shows it. */
  publicKey: string;
}

/** The typed configuration of one API process, read once at boot. */
export interface AppConfig {
  port: number;
  host: string;
  /** The origin walkers use, e.g. `https://steps.example.org`; OIDC redirects are built from it. */
  publicUrl: string;
  dataDir: string;
  /** `postgres://…` for PostgreSQL, otherwise the path of the SQLite file. */
  databaseUrl: string;
  /** Shared by every process of one deployment; when absent one is made and kept in the database. */
  sessionSecret: string | null;
  /** scrypt's cost for new password hashes, as a power of two (PASSWORD_HASH_COST). */
  passwordHashCost: number;
  oidc: ExternalIssuerConfig | BuiltInIssuerConfig;
  /** Whose X-Forwarded-* headers to believe: everyone's (true), nobody's, or these proxies' addresses. */
  trustProxy: boolean | string[];
  logLevel: string;
  /** The built PWA (`web/dist`); null serves the API alone. */
  webDistDir: string | null;
  /** `smtp://…` or `smtps://…`; null keeps mail as `.eml` files in DATA_DIR/mail. */
  smtpUrl: string | null;
  /** The From of every mail, e.g. `Charity Steps <no-reply@steps.example.org>`. */
  mailFrom: string;
  /** Lower-cased: an account is an operator when its confirmed email is one of these. */
  operatorEmails: string[];
  /** The free-entry postal address, one line per line; null when none is set (outside development). */
  postalEntryAddress: string | null;
  /** The drand chain each month's draw mixes a round of; null draws from the seed alone. */
  drawBeacon: DrawBeaconConfig | null;
  /** The scheduled job runs each month's draw itself once it has closed; false leaves it to an operator. */
  drawAutoRun: boolean;
  push: PushConfig;
}

/** Where pushes may go, and the server's VAPID identity. */
export interface PushConfig {
  /** Origins a subscription's endpoint may have; `https://*.host` matches any subdomain. */
  endpointOrigins: string[];
  /** Null: a key pair is made once and kept in the database. */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /** Who runs this server, for push services: `mailto:` and an address, or an https URL. */
  vapidSubject: string;
}

/** The push services of Chrome, Firefox, Safari and Edge. */
export const DEFAULT_PUSH_ENDPOINT_ORIGINS = [
  "https://fcm.googleapis.com",
  "https://updates.push.services.mozilla.com",
  "https://web.push.apple.com",
  "https://*.notify.windows.com",
];

/** What development shows for the postal address when none is set: plainly not a real one. */
export const PLACEHOLDER_POSTAL_ADDRESS =
  "PLACEHOLDER: set POSTAL_ENTRY_ADDRESS\nCharity Steps Prize Draw\nNo real address";

export interface ExternalIssuerConfig {
  kind: "external";
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface BuiltInIssuerConfig {
  kind: "built-in";
  clientId: string;
  /** Null: derived from the session secret. */
  clientSecret: string | null;
}

const defaultWebDist = fileURLToPath(new URL("../../web/dist", import.meta.url));

/**
 * Reads the environment in one place: each variable is checked by its schema, then the rules that
 * join several variables are applied.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const vars = readEnvironment(env);
  const dataDir = resolve(vars.DATA_DIR);
  const databaseUrl = databaseLocation(vars.DATABASE_URL, dataDir);
  const sessionSecret = vars.SESSION_SECRET ?? null;
  // Each process would otherwise make a secret of its own, and their sessions would not agree.
  if (sessionSecret === null && vars.NODE_ENV === "production" && isPostgresUrl(databaseUrl)) {
    throw new ConfigError(
      "SESSION_SECRET",
      "is required in production with PostgreSQL, so that every API process shares it",
    );
  }
  if (vars.NODE_ENV === "production" && vars.PASSWORD_HASH_COST < PASSWORD_HASH_COSTS.leastInProduction) {
    throw new ConfigError(
      "PASSWORD_HASH_COST",
      `must be at least ${PASSWORD_HASH_COSTS.leastInProduction} in production (lower costs are for tests)`,
    );
  }
  const publicUrl = vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`;
  const mailFrom = vars.MAIL_FROM ?? `Charity Steps <no-reply@${mailDomain(publicUrl)}>`;
  return {
    port: vars.PORT,
    host: vars.HOST,
    publicUrl,
    dataDir,
    databaseUrl,
    sessionSecret,
    passwordHashCost: vars.PASSWORD_HASH_COST,
    oidc: issuer(vars),
    trustProxy: vars.TRUST_PROXY,
    logLevel: vars.LOG_LEVEL,
    webDistDir:
      vars.WEB_DIST_DIR === "none" ? null : vars.WEB_DIST_DIR ? resolve(vars.WEB_DIST_DIR) : defaultWebDist,
    smtpUrl: vars.SMTP_URL ?? null,
    mailFrom,
    operatorEmails: vars.OPERATOR_EMAILS ?? [],
    postalEntryAddress:
      vars.POSTAL_ENTRY_ADDRESS ?? (vars.NODE_ENV === "production" ? null : PLACEHOLDER_POSTAL_ADDRESS),
    drawBeacon: drawBeacon(vars),
    drawAutoRun: vars.DRAW_AUTO_RUN,
    push: push(vars, mailFrom),
  };
}

function push(vars: Environment, mailFrom: string): PushConfig {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = vars;
  if ((publicKey === undefined) !== (privateKey === undefined)) {
    const missing = publicKey === undefined ? "VAPID_PUBLIC_KEY" : "VAPID_PRIVATE_KEY";
    throw new ConfigError(missing, "is required when the other VAPID key is set: set both, or neither");
  }
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  return {
    endpointOrigins: vars.PUSH_ENDPOINT_ORIGINS ?? DEFAULT_PUSH_ENDPOINT_ORIGINS,
    vapidKeys: publicKey !== undefined && privateKey !== undefined ? { publicKey, privateKey } : null,
    vapidSubject: vars.VAPID_SUBJECT ?? `mailto:${address}`,
  };
}

/**
 * The drand chain to ask, its hash and key pinned here rather than learnt from the server. A URL
 * ending in the hash of a chain prize-draw knows (quicknet, its testnet) takes that chain's hash and
 * key; any other chain needs both given.
 */
function drawBeacon(vars: Environment): DrawBeaconConfig | null {
  const { DRAW_BEACON_URL: url, DRAW_BEACON_CHAIN_HASH: chainHash, DRAW_BEACON_PUBLIC_KEY: publicKey } = vars;
  if (url === undefined) return null;
  const named = new URL(url).pathname.split("/").at(-1)?.toLowerCase() ?? "";
  const known = Object.hasOwn(KNOWN_DRAND_CHAINS, named) ? KNOWN_DRAND_CHAINS[named] : undefined;
  if (known === undefined) {
    const unknownChain =
      "is required when DRAW_BEACON_URL does not end in the hash of drand quicknet or its testnet";
    if (chainHash === undefined) throw new ConfigError("DRAW_BEACON_CHAIN_HASH", unknownChain);
    if (publicKey === undefined) throw new ConfigError("DRAW_BEACON_PUBLIC_KEY", unknownChain);
    return { url, chainHash, publicKey };
  }
  const network = `drand ${known.metadata.beaconID} (${known.hash}), the chain DRAW_BEACON_URL names`;
  if (chainHash !== undefined && chainHash !== known.hash) {
    throw new ConfigError("DRAW_BEACON_CHAIN_HASH", `is not the hash of ${network}`);
  }
  if (publicKey !== undefined && publicKey !== known.public_key) {
    throw new ConfigError("DRAW_BEACON_PUBLIC_KEY", `is not the public key of ${network}`);
  }
  return { url, chainHash: known.hash, publicKey: known.public_key };
}

/** PUBLIC_URL's host name, or `localhost` when it is an IP address (not a mail domain). */
function mailDomain(publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  return /^[\d.]+$|^\[/.test(host) ? "localhost" : host;
}

/** A PostgreSQL URL as given; a SQLite file as an absolute path, by default in DATA_DIR. */
function databaseLocation(url: string | undefined, dataDir: string): string {
  if (url === undefined) return join(dataDir, "charity-steps.db");
  if (isPostgresUrl(url) || isAbsolute(url)) return url;
  return resolve(url);
}

/** The external issuer when OIDC_ISSUER_URL names one, which then needs its client too; else the built-in one. */
function issuer(vars: Environment): AppConfig["oidc"] {
  const { OIDC_ISSUER_URL: issuerUrl, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = vars;
  if (issuerUrl === undefined) {
    return {
      kind: "built-in",
      clientId: clientId ?? "charity-steps-web",
      clientSecret: clientSecret ?? null,
    };
  }
  if (clientId === undefined)
    throw new ConfigError("OIDC_CLIENT_ID", "is required when OIDC_ISSUER_URL is set");
  if (clientSecret === undefined) {
    throw new ConfigError("OIDC_CLIENT_SECRET", "is required when OIDC_ISSUER_URL is set");
  }
  return { kind: "external", issuerUrl, clientId, clientSecret };
}

export function isHttps(config: Pick<AppConfig, "publicUrl">): boolean {
  return config.publicUrl.startsWith("https:");
}
