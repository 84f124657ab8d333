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
  ])("stops with a message naming the variable: %o", (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}: `));
  });
});
