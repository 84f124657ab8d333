import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";

describe("configuration from the environment", () => {
  it("runs with nothing set: SQLite under ./data, the built-in provider, port 3000", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.databaseUrl).toMatch(/data\/charity-steps\.db$/);
    expect(config.oidc).toEqual({ kind: "built-in", clientId: "charity-steps-web", clientSecret: null });
    expect(config.sessionSecret).toBeNull();
  });

  it("switches to PostgreSQL and an external issuer when told to", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://app:secret@db:5432/steps",
      PUBLIC_URL: "https://steps.example.org/",
      OIDC_ISSUER_URL: "https://id.example.org",
      OIDC_CLIENT_ID: "steps",
      OIDC_CLIENT_SECRET: "s3cret",
    });
    expect(config.databaseUrl).toBe("postgres://app:secret@db:5432/steps");
    expect(config.publicUrl).toBe("https://steps.example.org");
    expect(config.oidc).toEqual({
      kind: "external",
      issuerUrl: "https://id.example.org",
      clientId: "steps",
      clientSecret: "s3cret",
    });
  });

  it("trusts X-Forwarded-* from everyone, nobody, or only the listed proxies", () => {
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1,::1" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "127.0.0.1",
      "::1",
    ]);
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ PUBLIC_URL: "steps.example.org" }, "PUBLIC_URL"],
    [{ PUBLIC_URL: "ftp://steps.example.org" }, "PUBLIC_URL"],
    [{ SESSION_SECRET: "too-short" }, "SESSION_SECRET"],
    [{ OIDC_ISSUER_URL: "https://id.example.org" }, "OIDC_CLIENT_ID"],
    [{ OIDC_ISSUER_URL: "https://id.example.org", OIDC_CLIENT_ID: "x" }, "OIDC_CLIENT_SECRET"],
    [{ TRUST_PROXY: "maybe" }, "TRUST_PROXY"],
    [{ TRUST_PROXY: "10.0.0.1,proxy.internal" }, "TRUST_PROXY"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ NODE_ENV: "production", DATABASE_URL: "postgres://db/steps" }, "SESSION_SECRET"],
    [{ PORT: "3.5" }, "PORT"],
    [{ PASSWORD_HASH_COST: "9" }, "PASSWORD_HASH_COST"],
    [{ PASSWORD_HASH_COST: "18" }, "PASSWORD_HASH_COST"],
    [{ NODE_ENV: "production", PASSWORD_HASH_COST: "14" }, "PASSWORD_HASH_COST"],
    [{ DATABASE_URL: "sqlite:" }, "DATABASE_URL"],
    [{ OIDC_ISSUER_URL: "id.example.org", OIDC_CLIENT_ID: "x", OIDC_CLIENT_SECRET: "y" }, "OIDC_ISSUER_URL"],
  ])("stops with a message naming the variable: %o", (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}: `));
  });

  it.each([
    [{ PORT: "70000" }, 'PORT: must be a whole number from 0 to 65535, got "70000"'],
    [
      { PUBLIC_URL: "steps.example.org" },
      'PUBLIC_URL: must be an absolute http(s) URL, got "steps.example.org"',
    ],
    [
      { PUBLIC_URL: "ftp://steps.example.org" },
      'PUBLIC_URL: must use http or https, got "ftp://steps.example.org"',
    ],
    [
      { SESSION_SECRET: "too-short" },
      "SESSION_SECRET: must be at least 32 characters long (e.g. `openssl rand -hex 32`)",
    ],
    [{ DATABASE_URL: "file://" }, "DATABASE_URL: names no SQLite file"],
    [
      { PASSWORD_HASH_COST: "20" },
      'PASSWORD_HASH_COST: must be a whole number from 10 to 17 (scrypt\'s N as a power of two), got "20"',
    ],
    [
      { NODE_ENV: "production", PASSWORD_HASH_COST: "12" },
      "PASSWORD_HASH_COST: must be at least 15 in production (lower costs are for tests)",
    ],
    [{ TRUST_PROXY: "maybe" }, 'TRUST_PROXY: must be true or false, got "maybe"'],
    [
      { TRUST_PROXY: "10.0.0.1,proxy.internal" },
      'TRUST_PROXY: must be true, false or proxy addresses, got "proxy.internal"',
    ],
    [
      { LOG_LEVEL: "loud" },
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ],
    [
      { OIDC_ISSUER_URL: "https://id.example.org" },
      "OIDC_CLIENT_ID: is required when OIDC_ISSUER_URL is set",
    ],
  ])("says what is wrong and what it got: %o", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("reports the first variable in the order they are read when several are wrong", () => {
    expect(() => loadConfig({ LOG_LEVEL: "loud", PORT: "eighty" })).toThrow(/^PORT: /);
  });

  it("counts blank values as unset and trims the others", () => {
    const config = loadConfig({ PORT: " 8080 ", HOST: "", LOG_LEVEL: " DEBUG ", SESSION_SECRET: "   " });
    expect(config.port).toBe(8080);
    expect(config.host).toBe("0.0.0.0");
    expect(config.logLevel).toBe("debug");
    expect(config.sessionSecret).toBeNull();
  });

  it("reads SQLite locations with or without a scheme, and serves the API alone on request", () => {
    expect(loadConfig({ DATABASE_URL: "sqlite:/srv/steps.db" }).databaseUrl).toBe("/srv/steps.db");
    expect(loadConfig({ DATABASE_URL: "file:///srv/steps.db" }).databaseUrl).toBe("/srv/steps.db");
    expect(loadConfig({ DATABASE_URL: "steps.db" }).databaseUrl).toBe(resolve("steps.db"));
    expect(loadConfig({ DATA_DIR: "/srv/data" }).databaseUrl).toBe("/srv/data/charity-steps.db");
    expect(loadConfig({ WEB_DIST_DIR: "none" }).webDistDir).toBeNull();
    expect(loadConfig({ TRUST_PROXY: "No" }).trustProxy).toBe(false);
  });
});

describe("the prize draw's drand beacon and auto-run", () => {
  const QUICKNET = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";
  const QUICKNET_KEY =
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a";
  const OTHER_HASH = "ab".repeat(32);
  const OTHER_KEY = "cd".repeat(96);

  it("mixes in no beacon and runs each closed month's draw by default", () => {
    const config = loadConfig({});
    expect(config.drawBeacon).toBeNull();
    expect(config.drawAutoRun).toBe(true);
  });

  it("takes quicknet's hash and public key from a quicknet URL", () => {
    expect(loadConfig({ DRAW_BEACON_URL: `https://api.drand.sh/${QUICKNET}/` }).drawBeacon).toEqual({
      url: `https://api.drand.sh/${QUICKNET}`,
      chainHash: QUICKNET,
      publicKey: QUICKNET_KEY,
    });
    // Given as well, they must be quicknet's own (in any case).
    expect(
      loadConfig({
        DRAW_BEACON_URL: `https://drand.example.org/${QUICKNET}`,
        DRAW_BEACON_CHAIN_HASH: QUICKNET.toUpperCase(),
        DRAW_BEACON_PUBLIC_KEY: QUICKNET_KEY,
      }).drawBeacon?.chainHash,
    ).toBe(QUICKNET);
    expect(
      loadConfig({
        DRAW_BEACON_URL:
          "https://api.drand.sh/cc9c398442737cbd141526600919edd69f1d6f9b4adb67e4d912fbc64341a9a5",
      }).drawBeacon?.publicKey,
    ).toMatch(/^b15b65b4/);
  });

  it("takes any other chain with its hash and public key given, lower-cased", () => {
    expect(
      loadConfig({
        DRAW_BEACON_URL: "http://127.0.0.1:8080/chain",
        DRAW_BEACON_CHAIN_HASH: OTHER_HASH.toUpperCase(),
        DRAW_BEACON_PUBLIC_KEY: OTHER_KEY,
      }).drawBeacon,
    ).toEqual({ url: "http://127.0.0.1:8080/chain", chainHash: OTHER_HASH, publicKey: OTHER_KEY });
  });

  it.each([
    ["false", false],
    ["0", false],
    ["NO", false],
    ["true", true],
    ["yes", true],
  ])("reads DRAW_AUTO_RUN=%s as %s", (value, expected) => {
    expect(loadConfig({ DRAW_AUTO_RUN: value }).drawAutoRun).toBe(expected);
  });

  it.each([
    [{ DRAW_BEACON_URL: "https://api.drand.sh" }, "DRAW_BEACON_CHAIN_HASH"],
    [
      { DRAW_BEACON_URL: "https://api.drand.sh", DRAW_BEACON_CHAIN_HASH: OTHER_HASH },
      "DRAW_BEACON_PUBLIC_KEY",
    ],
    [
      { DRAW_BEACON_URL: "https://api.drand.sh", DRAW_BEACON_PUBLIC_KEY: OTHER_KEY },
      "DRAW_BEACON_CHAIN_HASH",
    ],
    [{ DRAW_BEACON_URL: `ftp://api.drand.sh/${QUICKNET}` }, "DRAW_BEACON_URL"],
    [{ DRAW_BEACON_URL: "api.drand.sh" }, "DRAW_BEACON_URL"],
    [
      { DRAW_BEACON_URL: `https://api.drand.sh/${QUICKNET}`, DRAW_BEACON_CHAIN_HASH: OTHER_HASH },
      "DRAW_BEACON_CHAIN_HASH",
    ],
    [
      { DRAW_BEACON_URL: `https://api.drand.sh/${QUICKNET}`, DRAW_BEACON_PUBLIC_KEY: OTHER_KEY },
      "DRAW_BEACON_PUBLIC_KEY",
    ],
    [{ DRAW_BEACON_CHAIN_HASH: "xyz" }, "DRAW_BEACON_CHAIN_HASH"],
    [{ DRAW_BEACON_CHAIN_HASH: "ab".repeat(31) }, "DRAW_BEACON_CHAIN_HASH"],
    [{ DRAW_BEACON_PUBLIC_KEY: "zz".repeat(96) }, "DRAW_BEACON_PUBLIC_KEY"],
    [{ DRAW_BEACON_PUBLIC_KEY: "ab".repeat(50) }, "DRAW_BEACON_PUBLIC_KEY"],
    [{ DRAW_AUTO_RUN: "sometimes" }, "DRAW_AUTO_RUN"],
  ])("stops with a message naming the variable: %o", (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}: `));
  });
});

describe("Web Push's settings", () => {
  it("allows the four browsers' push services and makes its own VAPID keys by default", () => {
    const { push } = loadConfig({ MAIL_FROM: "Charity Steps <hello@steps.example.org>" });
    expect(push).toEqual({
      endpointOrigins: [
        "https://fcm.googleapis.com",
        "https://updates.push.services.mozilla.com",
        "https://web.push.apple.com",
        "https://*.notify.windows.com",
      ],
      vapidKeys: null,
      vapidSubject: "mailto:hello@steps.example.org",
    });
  });

  it("takes listed origins (lower-cased, a test's http://127.0.0.1 too) and a key pair given whole", () => {
    const publicKey = Buffer.alloc(65, 4).toString("base64url");
    const privateKey = Buffer.alloc(32, 7).toString("base64url");
    const { push } = loadConfig({
      PUSH_ENDPOINT_ORIGINS: " https://Push.Example.org/ , http://127.0.0.1:4567",
      VAPID_PUBLIC_KEY: publicKey,
      VAPID_PRIVATE_KEY: privateKey,
      VAPID_SUBJECT: "https://steps.example.org/contact",
    });
    expect(push).toEqual({
      endpointOrigins: ["https://push.example.org", "http://127.0.0.1:4567"],
      vapidKeys: { publicKey, privateKey },
      vapidSubject: "https://steps.example.org/contact",
    });
  });

  it.each([
    [{ PUSH_ENDPOINT_ORIGINS: "http://push.example.org" }, "PUSH_ENDPOINT_ORIGINS: must be origins"],
    [{ PUSH_ENDPOINT_ORIGINS: "https://push.example.org/path" }, "PUSH_ENDPOINT_ORIGINS: must be origins"],
    [{ VAPID_PUBLIC_KEY: "abc" }, "VAPID_PUBLIC_KEY: must be a VAPID public key (65 bytes, base64url)"],
    [
      { VAPID_PUBLIC_KEY: Buffer.alloc(65, 4).toString("base64url") },
      "VAPID_PRIVATE_KEY: is required when the other VAPID key is set",
    ],
    [{ VAPID_SUBJECT: "ops@example.org" }, "VAPID_SUBJECT: must be a mailto: address or an https: URL"],
  ])("says what is wrong: %o", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
