import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { serverProcessArgs } from "../reliability/api-process.js";

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("mail configuration", () => {
  it("keeps mail as files with no SMTP_URL, from an address on PUBLIC_URL's host", () => {
    expect(loadConfig({})).toMatchObject({ smtpUrl: null, mailFrom: "Charity Steps <no-reply@localhost>" });
    expect(loadConfig({ PUBLIC_URL: "https://steps.example.org" }).mailFrom).toBe(
      "Charity Steps <no-reply@steps.example.org>",
    );
    expect(loadConfig({ PUBLIC_URL: "http://127.0.0.1:8080" }).mailFrom).toBe(
      "Charity Steps <no-reply@localhost>",
    );
  });

  it("takes an smtp:// or smtps:// URL and a sender", () => {
    const config = loadConfig({
      SMTP_URL: "smtps://mailer:p%40ss@smtp.example.org:465",
      MAIL_FROM: "Steps <hello@example.org>",
    });
    expect(config.smtpUrl).toBe("smtps://mailer:p%40ss@smtp.example.org:465");
    expect(config.mailFrom).toBe("Steps <hello@example.org>");
    expect(loadConfig({ SMTP_URL: "smtp://localhost:1025", MAIL_FROM: "hello@example.org" })).toMatchObject({
      smtpUrl: "smtp://localhost:1025",
      mailFrom: "hello@example.org",
    });
  });

  it.each([
    "http://smtp.example.org",
    "smtp.example.org:587",
    "smtp://",
    "smtp://mailer:pw@smtp.example.org:99999",
    "smtp://smtp.example.org/some/path",
  ])("refuses SMTP_URL=%s, naming the variable", (value) => {
    const error = refusal({ SMTP_URL: value });
    expect(error.variable).toBe("SMTP_URL");
    expect(error.message).toMatch(/^SMTP_URL: /);
  });

  it("does not repeat the SMTP password in its refusal", () => {
    const error = refusal({ SMTP_URL: "smtp://mailer:hunter2@/" });
    expect(error.variable).toBe("SMTP_URL");
    expect(error.message).not.toContain("hunter2");
  });

  it.each(["no-reply", "Charity Steps", "a@b.org, c@d.org", "Steps <not an address>"])(
    "refuses MAIL_FROM=%s, naming the variable",
    (value) => {
      const error = refusal({ MAIL_FROM: value });
      expect(error.variable).toBe("MAIL_FROM");
      expect(error.message).toMatch(/^MAIL_FROM: must be an address/);
    },
  );

  it("stops the server at boot on a bad SMTP_URL, saying which variable is wrong", async () => {
    const apiDir = fileURLToPath(new URL("../..", import.meta.url));
    const child = spawn(process.execPath, serverProcessArgs(), {
      cwd: apiDir,
      env: { ...process.env, SMTP_URL: "mail.example.org:25", LOG_LEVEL: "silent", PORT: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(78);
    expect(stderr).toContain("Configuration error: SMTP_URL: must start with smtp:// or smtps://");
  });
});
