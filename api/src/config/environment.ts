import { type StaticDecode, Type } from "typebox";
import { DecodeError, Value } from "typebox/value";
import { DEFAULT_PASSWORD_HASH_COST, PASSWORD_HASH_COSTS } from "../auth/passwords.js";
import { ConfigError } from "./config-error.js";

/**
 * A variable's sentence for a value its schema rejects by a plain keyword (a range, a length).
 * Refinements carry their own sentences, since one variable can be wrong in more than one way.
 */
type ErrorMessage = (value: string) => string;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
const YES = ["1", "true", "yes"];
const NO = ["0", "false", "no"];
const POSTGRES_URL = /^postgres(ql)?:\/\//;
const SQLITE_SCHEME = /^(sqlite|file):(\/\/)?/;
const PROXY_ADDRESS = /^[0-9a-fA-F.:]+(\/\d{1,3})?$/;

const isHttpUrl = (value: string) =>
  URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol);

/** An absolute http(s) URL, kept without its trailing slashes so paths can be appended to it. */
const HttpUrl = Type.Decode(
  Type.Refine(
    Type.Refine(
      Type.String(),
      (value) => URL.canParse(value),
      (value) => `must be an absolute http(s) URL, got "${value}"`,
    ),
    (value) => !URL.canParse(value) || isHttpUrl(value),
    (value) => `must use http or https, got "${value}"`,
  ),
  (value) => value.replace(/\/+$/, ""),
);

export const isPostgresUrl = (value: string) => POSTGRES_URL.test(value);

/**
 * `postgres://…` for PostgreSQL, kept as given; anything else names a SQLite file, with or without
 * `sqlite:`/`file:`, and decodes to its path.
 */
const DatabaseUrl = Type.Decode(
  Type.Refine(
    Type.Refine(
      Type.String(),
      // WHATWG URL checks the host and port strictly only for special schemes such as http.
      (value) => !isPostgresUrl(value) || URL.canParse(value.replace(/^postgres(ql)?:/, "http:")),
      (value) => `must be an absolute http(s) URL, got "${value}"`,
    ),
    (value) => isPostgresUrl(value) || value.replace(SQLITE_SCHEME, "") !== "",
    () => "names no SQLite file",
  ),
  (value) => (isPostgresUrl(value) ? value : value.replace(SQLITE_SCHEME, "")),
);

const isAddressList = (value: string) => /[.:]/.test(value);
const proxyAddresses = (value: string) => value.split(",").map((address) => address.trim());
const badProxyAddress = (value: string) =>
  proxyAddresses(value).find((address) => !PROXY_ADDRESS.test(address));

/**
 * `true`/`false`, or the proxies' addresses and ranges (`10.0.0.0/8,127.0.0.1`): with a list, a
 * client cannot pose as another address by sending X-Forwarded-For itself (the sign-in throttle
 * counts per address). A value holding an address's `.` or `:` is read as a list.
 */
const TrustProxy = Type.Decode(
  Type.Refine(
    Type.Refine(
      Type.String({ default: "false" }),
      (value) => isAddressList(value) || [...YES, ...NO].includes(value.toLowerCase()),
      (value) => `must be true or false, got "${value}"`,
    ),
    (value) => !isAddressList(value) || badProxyAddress(value) === undefined,
    (value) => `must be true, false or proxy addresses, got "${badProxyAddress(value)}"`,
  ),
  (value): boolean | string[] =>
    isAddressList(value) ? proxyAddresses(value) : YES.includes(value.toLowerCase()),
);

/**
 * Where mail goes: `smtp://user:pass@host:port` (STARTTLS when the server offers it) or `smtps://…`
 * (TLS from the start). Unset, mail is kept as files instead.
 */
const SmtpUrl = Type.Refine(
  Type.Refine(
    Type.String(),
    (value) => /^smtps?:\/\//i.test(value),
    (value) => `must start with smtp:// or smtps://, got "${redactPassword(value)}"`,
  ),
  (value) => !/^smtps?:\/\//i.test(value) || isSmtpServerUrl(value),
  (value) => `must name a host (smtp://user:pass@host:port), got "${redactPassword(value)}"`,
);

function isSmtpServerUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.hostname !== "" && (url.pathname === "" || url.pathname === "/");
}

/** The URL without its password, fit for an error message. */
function redactPassword(value: string): string {
  return value.replace(/^(smtps?:\/\/[^:@/]*:)[^@/]*@/i, "$1***@");
}

/** `Name <address>` or a bare address: the sender of every mail. */
const MailFrom = Type.Refine(
  Type.String(),
  (value) => /^(?:[^<>@]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>,]+@[^\s@<>,]+)$/.test(value),
  (value) => `must be an address such as "Charity Steps <no-reply@example.org>", got "${value}"`,
);

const EMAIL = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;
const emailList = (value: string) =>
  value
    .split(",")
    .map((email) => email.trim())
    .filter((email) => email !== "");
const badEmail = (value: string) => emailList(value).find((email) => !EMAIL.test(email));

/**
 * The operators' emails, comma-separated, compared without regard to case. An operator's email
 * must also be confirmed on their account: the list alone grants nothing.
 */
const OperatorEmails = Type.Decode(
  Type.Refine(
    Type.String(),
    (value) => badEmail(value) === undefined,
    (value) => `must be email addresses separated by commas, got "${badEmail(value)}"`,
  ),
  (value) => [...new Set(emailList(value).map((email) => email.toLowerCase()))],
);

/**
 * The push services a walker's browser may name as its push endpoint, comma-separated origins:
 * `https://host`, `https://*.host` for any subdomain, or, for tests, `http://127.0.0.1:port` or
 * `http://localhost:port`.
 */
const PushEndpointOrigins = Type.Decode(
  Type.Refine(
    Type.String(),
    (value) => badPushOrigin(value) === undefined,
    (value) =>
      `must be origins separated by commas, each https://host, https://*.host, or http://127.0.0.1:port for tests, got "${badPushOrigin(value)}"`,
  ),
  (value) => [...new Set(originList(value))],
);
const originList = (value: string) =>
  value
    .split(",")
    .map((origin) => origin.trim().toLowerCase().replace(/\/$/, ""))
    .filter((origin) => origin !== "");
const PUSH_ORIGIN =
  /^(https:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d{1,5})?|http:\/\/(127\.0\.0\.1|localhost):\d{1,5})$/;
const badPushOrigin = (value: string) => {
  const origins = originList(value);
  return origins.length === 0 ? value : origins.find((origin) => !PUSH_ORIGIN.test(origin));
};

/** A VAPID key, base64url as `web-push generate-vapid-keys` prints it. */
const VapidKey = (what: string, length: number) =>
  Type.Refine(
    Type.String(),
    (value) => /^[A-Za-z0-9_-]+$/.test(value) && Buffer.from(value, "base64url").length === length,
    () => `must be ${what} (${length} bytes, base64url), as \`npx web-push generate-vapid-keys\` prints it`,
  );

/** Where postal entries are sent; `\n` in the value starts a new line of the address. */
const PostalEntryAddress = Type.Decode(Type.String({ maxLength: 500 }), (value) =>
  value
    .split(/\\n|\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n"),
);

/** `true`/`false` (also 1/0, yes/no), any case. */
const Flag = (byDefault: boolean) =>
  Type.Decode(
    Type.Refine(
      Type.String({ default: String(byDefault) }),
      (value) => [...YES, ...NO].includes(value.toLowerCase()),
      (value) => `must be true or false, got "${value}"`,
    ),
    (value) => YES.includes(value.toLowerCase()),
  );

/** Hex digits of a drand chain's hash or public key, kept in lower case as drand's answers have them. */
const DrandHex = (what: string, lengths: number[]) =>
  Type.Decode(
    Type.Refine(
      Type.String(),
      (value) => /^[0-9a-fA-F]+$/.test(value) && lengths.includes(value.length),
      (value) => `must be ${what} (${lengths.join(" or ")} hex digits), got "${value}"`,
    ),
    (value) => value.toLowerCase(),
  );

const LogLevel = Type.Decode(
  Type.Refine(
    Type.String({ default: "info" }),
    (value) => LOG_LEVELS.includes(value.toLowerCase()),
    (value) => `must be one of ${LOG_LEVELS.join(", ")}, got "${value}"`,
  ),
  (value) => value.toLowerCase(),
);

const Port = Type.Number({
  // A number that is a multiple of 1 rather than an integer: converting "3.5" to an integer would
  // quietly truncate it instead of rejecting it.
  multipleOf: 1,
  minimum: 0,
  maximum: 65_535,
  default: 3000,
  errorMessage: ((value) => `must be a whole number from 0 to 65535, got "${value}"`) satisfies ErrorMessage,
});

/** scrypt's cost as a power of two; production's floor is checked in loadConfig. */
const PasswordHashCost = Type.Number({
  multipleOf: 1,
  minimum: PASSWORD_HASH_COSTS.least,
  maximum: PASSWORD_HASH_COSTS.most,
  default: DEFAULT_PASSWORD_HASH_COST,
  errorMessage: ((value) =>
    `must be a whole number from ${PASSWORD_HASH_COSTS.least} to ${PASSWORD_HASH_COSTS.most} (scrypt's N as a power of two), got "${value}"`) satisfies ErrorMessage,
});

const SessionSecret = Type.String({
  minLength: 32,
  errorMessage: (() =>
    "must be at least 32 characters long (e.g. `openssl rand -hex 32`)") satisfies ErrorMessage,
});

/**
 * The variables the API reads, in the order their problems are reported. Every value arrives
 * trimmed, and a blank one counts as unset.
 */
export const EnvironmentSchema = Type.Object({
  PORT: Port,
  HOST: Type.String({ default: "0.0.0.0" }),
  /** Its default, http://localhost:PORT, depends on PORT, so loadConfig fills it in. */
  PUBLIC_URL: Type.Optional(HttpUrl),
  DATA_DIR: Type.String({ default: "data" }),
  /** Its default, a SQLite file in DATA_DIR, depends on DATA_DIR, so loadConfig fills it in. */
  DATABASE_URL: Type.Optional(DatabaseUrl),
  SESSION_SECRET: Type.Optional(SessionSecret),
  PASSWORD_HASH_COST: PasswordHashCost,
  OIDC_ISSUER_URL: Type.Optional(HttpUrl),
  OIDC_CLIENT_ID: Type.Optional(Type.String()),
  OIDC_CLIENT_SECRET: Type.Optional(Type.String()),
  TRUST_PROXY: TrustProxy,
  SMTP_URL: Type.Optional(SmtpUrl),
  /** Its default names PUBLIC_URL's host, so loadConfig fills it in. */
  MAIL_FROM: Type.Optional(MailFrom),
  LOG_LEVEL: LogLevel,
  OPERATOR_EMAILS: Type.Optional(OperatorEmails),
  POSTAL_ENTRY_ADDRESS: Type.Optional(PostalEntryAddress),
  /** A drand chain's base URL; its hash and key default from it for the chains prize-draw knows. */
  DRAW_BEACON_URL: Type.Optional(HttpUrl),
  DRAW_BEACON_CHAIN_HASH: Type.Optional(DrandHex("a drand chain hash", [64])),
  // A public key on G1 (48 bytes) or G2 (96 bytes) of BLS12-381, or on G2 of BN254 (128 bytes).
  DRAW_BEACON_PUBLIC_KEY: Type.Optional(DrandHex("a drand chain's public key", [96, 192, 256])),
  DRAW_AUTO_RUN: Flag(true),
  PUSH_ENDPOINT_ORIGINS: Type.Optional(PushEndpointOrigins),
  /** All three or none: without them a key pair is made once and kept in the database. */
  VAPID_PUBLIC_KEY: Type.Optional(VapidKey("a VAPID public key", 65)),
  VAPID_PRIVATE_KEY: Type.Optional(VapidKey("a VAPID private key", 32)),
  /** Its default is `mailto:` and MAIL_FROM's address, so loadConfig fills it in. */
  VAPID_SUBJECT: Type.Optional(
    Type.Refine(
      Type.String(),
      (value) => /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(value),
      (value) => `must be a mailto: address or an https: URL, got "${value}"`,
    ),
  ),
  /** `none` serves the API alone; unset serves the PWA built in the repository. */
  WEB_DIST_DIR: Type.Optional(Type.String()),
  NODE_ENV: Type.Optional(Type.String()),
});

export type Environment = StaticDecode<typeof EnvironmentSchema>;
type Variable = keyof typeof EnvironmentSchema.properties;

/**
 * The environment checked against its schema in one pass: defaults filled in, numbers converted,
 * values decoded. The first problem found stops the API with a ConfigError naming its variable.
 */
export function readEnvironment(env: Record<string, string | undefined>): Environment {
  const given: Partial<Record<Variable, string>> = {};
  for (const variable of Object.keys(EnvironmentSchema.properties) as Variable[]) {
    const value = env[variable]?.trim();
    if (value) given[variable] = value;
  }
  try {
    return Value.Decode(EnvironmentSchema, given);
  } catch (error) {
    const problem = error instanceof DecodeError ? error.cause.errors[0] : undefined;
    if (problem === undefined) throw error;
    const variable = problem.instancePath.split("/")[1] as Variable;
    const { errorMessage } = EnvironmentSchema.properties[variable] as { errorMessage?: ErrorMessage };
    const message =
      problem.keyword !== "~refine" && errorMessage ? errorMessage(given[variable] ?? "") : problem.message;
    throw new ConfigError(variable, message);
  }
}
