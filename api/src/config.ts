import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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
  oidc: ExternalIssuerConfig | BuiltInIssuerConfig;
  /** Honour X-Forwarded-* from a reverse proxy. */
  /** Whose X-Forwarded-* headers to believe: everyone's (true), nobody's, or these proxies' addresses. */
  trustProxy: boolean | string[];
  logLevel: string;
  /** The built PWA (`web/dist`); null serves the API alone. */
  webDistDir: string | null;
}

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

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

const defaultWebDist = fileURLToPath(new URL("../../web/dist", import.meta.url));

/** Reads the raw environment in one place and validates it into an AppConfig. */
export function loadConfig(env: Env = process.env): AppConfig {
  const port = readPort(env.PORT);
  const dataDir = resolve(blankToNull(env.DATA_DIR) ?? "data");
  const publicUrl = readUrl("PUBLIC_URL", blankToNull(env.PUBLIC_URL) ?? `http://localhost:${port}`);
  const databaseUrl = readDatabaseUrl(env.DATABASE_URL, dataDir);
  const sessionSecret = blankToNull(env.SESSION_SECRET);
  if (sessionSecret !== null && sessionSecret.length < 32) {
    throw new ConfigError(
      "SESSION_SECRET",
      "must be at least 32 characters long (e.g. `openssl rand -hex 32`)",
    );
  }
  if (sessionSecret === null && env.NODE_ENV === "production" && databaseUrl.startsWith("postgres")) {
    throw new ConfigError(
      "SESSION_SECRET",
      "is required in production with PostgreSQL, so that every API process shares it",
    );
  }
  return {
    port,
    host: blankToNull(env.HOST) ?? "0.0.0.0",
    publicUrl,
    dataDir,
    databaseUrl,
    sessionSecret,
    oidc: readOidc(env),
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    logLevel: readLogLevel(env.LOG_LEVEL),
    webDistDir: readWebDist(env.WEB_DIST_DIR),
  };
}

function blankToNull(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function readPort(raw: string | undefined): number {
  const value = blankToNull(raw);
  if (value === null) return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError("PORT", `must be a whole number from 0 to 65535, got "${value}"`);
  }
  return port;
}

function readUrl(variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(variable, `must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(variable, `must use http or https, got "${value}"`);
  }
  return value.replace(/\/+$/, "");
}

function readDatabaseUrl(raw: string | undefined, dataDir: string): string {
  const value = blankToNull(raw);
  if (value === null) return join(dataDir, "charity-steps.db");
  if (/^postgres(ql)?:\/\//.test(value)) {
    readUrl("DATABASE_URL", value.replace(/^postgres(ql)?:/, "http:"));
    return value;
  }
  const path = value.replace(/^(sqlite|file):(\/\/)?/, "");
  if (!path) throw new ConfigError("DATABASE_URL", "names no SQLite file");
  return isAbsolute(path) ? path : resolve(path);
}

function readOidc(env: Env): AppConfig["oidc"] {
  const issuerUrl = blankToNull(env.OIDC_ISSUER_URL);
  const clientId = blankToNull(env.OIDC_CLIENT_ID);
  const clientSecret = blankToNull(env.OIDC_CLIENT_SECRET);
  if (issuerUrl === null) {
    return { kind: "built-in", clientId: clientId ?? "charity-steps-web", clientSecret };
  }
  if (clientId === null) throw new ConfigError("OIDC_CLIENT_ID", "is required when OIDC_ISSUER_URL is set");
  if (clientSecret === null) {
    throw new ConfigError("OIDC_CLIENT_SECRET", "is required when OIDC_ISSUER_URL is set");
  }
  return { kind: "external", issuerUrl: readUrl("OIDC_ISSUER_URL", issuerUrl), clientId, clientSecret };
}

function readBoolean(variable: string, raw: string | undefined, fallback: boolean): boolean {
  const value = blankToNull(raw)?.toLowerCase();
  if (value === undefined || value === null) return fallback;
  if (["1", "true", "yes"].includes(value)) return true;
  if (["0", "false", "no"].includes(value)) return false;
  throw new ConfigError(variable, `must be true or false, got "${raw}"`);
}

/**
 * `true`/`false`, or the proxies' addresses and ranges (`10.0.0.0/8,127.0.0.1`): with a list, a
 * client cannot pose as another address by sending X-Forwarded-For itself (the sign-in throttle
 * counts per address).
 */
function readTrustProxy(raw: string | undefined): boolean | string[] {
  const value = blankToNull(raw);
  if (value !== null && /[.:]/.test(value)) {
    const addresses = value.split(",").map((address) => address.trim());
    const bad = addresses.find((address) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(address));
    if (bad !== undefined) {
      throw new ConfigError("TRUST_PROXY", `must be true, false or proxy addresses, got "${bad}"`);
    }
    return addresses;
  }
  return readBoolean("TRUST_PROXY", raw, false);
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function readLogLevel(raw: string | undefined): string {
  const value = blankToNull(raw)?.toLowerCase() ?? "info";
  if (!LOG_LEVELS.includes(value)) {
    throw new ConfigError("LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")}, got "${raw}"`);
  }
  return value;
}

function readWebDist(raw: string | undefined): string | null {
  const value = blankToNull(raw);
  if (value === "none") return null;
  return value ? resolve(value) : defaultWebDist;
}

export function isHttps(config: Pick<AppConfig, "publicUrl">): boolean {
  return config.publicUrl.startsWith("https:");
}
