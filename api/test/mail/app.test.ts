import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { simpleParser } from "mailparser";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import { mailLayout } from "../../src/mail/mail.js";
import { createTestDatabase, dialects, type TestDatabase, testConfig } from "../helper.js";
import { logCapture, startSmtpServer, type TestSmtpServer, waitFor } from "../support/smtp-server.js";

const FROM = "Charity Steps <no-reply@steps.example.org>";

/** The mail queue inside the whole app: `app.services.mail.send`, the worker started with it, its files. */
describe.each(dialects)("mail in the app (%s)", (dialect) => {
  const opened: { apps: FastifyInstance[]; servers: TestSmtpServer[]; databases: TestDatabase[] } = {
    apps: [],
    servers: [],
    databases: [],
  };

  afterEach(async () => {
    await Promise.all(opened.apps.splice(0).map((app) => app.close()));
    await Promise.all(opened.servers.splice(0).map((server) => server.close()));
    await Promise.all(opened.databases.splice(0).map((database) => database.drop()));
  });

  async function database() {
    const created = await createTestDatabase(dialect, { migrated: true });
    opened.databases.push(created);
    return created;
  }

  async function smtpServer(options: Parameters<typeof startSmtpServer>[0] = {}) {
    const server = await startSmtpServer(options);
    opened.servers.push(server);
    return server;
  }

  /** The app, built but not yet ready: its worker starts with `ready()`. */
  async function app(
    databaseUrl: string,
    env: Record<string, string> = {},
    stream?: { write(line: string): void },
  ) {
    const built = await buildApp(testConfig({ DATABASE_URL: databaseUrl, ...env }), {
      logger: stream ? { level: "info", stream } : false,
    });
    opened.apps.push(built);
    return built;
  }

  it("sends a message once over SMTP, with its subject, text, HTML and From", async () => {
    const smtp = await smtpServer();
    const { url } = await database();
    const api = await app(url, { SMTP_URL: smtp.url, MAIL_FROM: FROM });
    await api.ready();
    const body = mailLayout({
      greeting: "Hello Ada,",
      paragraphs: ["Someone asked to reset your password."],
      action: { label: "Choose a new password", url: "https://steps.example.org/reset?token=abc" },
    });
    await api.services.mail.send({
      to: "ada@example.org",
      subject: "Reset your Charity Steps password",
      ...body,
    });

    await waitFor(() => smtp.received.length > 0);
    const [mail] = smtp.received;
    expect(mail?.subject).toBe("Reset your Charity Steps password");
    expect(mail?.from?.value).toEqual([{ name: "Charity Steps", address: "no-reply@steps.example.org" }]);
    expect(mail?.to && "text" in mail.to ? mail.to.text : undefined).toBe("ada@example.org");
    expect(mail?.text?.trimEnd()).toBe(body.text.trimEnd());
    expect(mail?.html).toContain('href="https://steps.example.org/reset?token=abc"');
    expect(mail?.messageId).toMatch(/@steps\.example\.org>$/);

    await waitFor(
      async () =>
        (await api.database.db.selectFrom("mail_outbox").select("status").executeTakeFirst())?.status ===
        "sent",
    );
    // Another look of the worker finds nothing more to send.
    await api.services.mail.runOnce();
    expect(smtp.received).toHaveLength(1);
  });

  it("keeps mail as .eml files in DATA_DIR/mail with no SMTP_URL, and logs where the link goes", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "charity-steps-mail-"));
    const { url } = await database();
    const capture = logCapture();
    const api = await app(
      url,
      { DATA_DIR: dataDir, PUBLIC_URL: "https://steps.example.org" },
      capture.stream,
    );
    await api.ready();
    const link = "http://localhost:3000/account/confirm?token=xyz";
    await api.services.mail.send({
      to: "ada@example.org",
      subject: "Confirm your email",
      ...mailLayout({
        greeting: "Hello Ada,",
        paragraphs: ["Please confirm."],
        action: { label: "Confirm", url: link },
      }),
      link,
    });

    await waitFor(() => capture.lines.some((line) => line.msg === "mail written to a file"));
    const files = readdirSync(join(dataDir, "mail"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const raw = readFileSync(join(dataDir, "mail", files[0] ?? ""));
    expect(raw.toString("latin1")).toContain("\r\n");
    const mail = await simpleParser(raw);
    expect(mail.subject).toBe("Confirm your email");
    expect(mail.from?.value).toEqual([{ name: "Charity Steps", address: "no-reply@steps.example.org" }]);
    expect(mail.text).toContain(link);

    expect(capture.lines.find((line) => line.msg === "mail queued")).toMatchObject({
      level: 30,
      to: "ada@example.org",
      subject: "Confirm your email",
      link,
    });
    expect(capture.lines.find((line) => line.msg === "mail written to a file")).toMatchObject({
      level: 30,
      to: "ada@example.org",
      subject: "Confirm your email",
      file: join(dataDir, "mail", files[0] ?? ""),
    });
  });

  it("sends what a stopped app left queued once the next one starts", async () => {
    const smtp = await smtpServer();
    const { url } = await database();
    const first = await app(url, { SMTP_URL: smtp.url });
    // Queued, but the app stops before its worker ever runs.
    await first.services.mail.send({ to: "ada@example.org", subject: "Left behind", text: "Hello" });
    await first.close();
    expect(smtp.received).toHaveLength(0);

    const second = await app(url, { SMTP_URL: smtp.url });
    await second.ready();
    await waitFor(() => smtp.received.length > 0);
    expect(smtp.received.map((mail) => mail.subject)).toEqual(["Left behind"]);
    // The mail reaches the SMTP server a moment before the worker hears back and marks it sent.
    const row = () => second.database.db.selectFrom("mail_outbox").selectAll().executeTakeFirstOrThrow();
    await expect.poll(row).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("delivers a batch of 50 exactly once with two apps on one database", async () => {
    const smtp = await smtpServer({ delayMs: 5 });
    const { url } = await database();
    const captures = [logCapture(), logCapture()];
    const [one, two] = [
      await app(url, { SMTP_URL: smtp.url }, captures[0]?.stream),
      await app(url, { SMTP_URL: smtp.url }, captures[1]?.stream),
    ] as const;
    const subjects = Array.from({ length: 50 }, (_, index) => `Message ${index}`);
    for (const [index, subject] of subjects.entries()) {
      await (index % 2 === 0 ? one : two).services.mail.send({
        to: `walker${index}@example.org`,
        subject,
        text: subject,
      });
    }
    // Both workers start at once on the full queue.
    await Promise.all([one.ready(), two.ready()]);
    await waitFor(() => smtp.received.length >= 50, 30_000);
    // Time for a second send of anything, were there one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await Promise.all([one.services.mail.runOnce(), two.services.mail.runOnce()]);

    const arrived = smtp.received.map((mail) => mail.subject ?? "");
    expect(arrived).toHaveLength(50);
    expect([...arrived].sort()).toEqual([...subjects].sort());
    const rows = await one.database.db.selectFrom("mail_outbox").select(["status", "attempts"]).execute();
    expect(rows).toHaveLength(50);
    expect(rows.every((row) => row.status === "sent" && Number(row.attempts) === 1)).toBe(true);
    const sentBy = captures.map((capture) => capture.lines.filter((line) => line.msg === "mail sent").length);
    expect(sentBy.reduce((sum, count) => sum + count, 0)).toBe(50);
    // Both workers took part, so the single delivery was decided between them, not by chance.
    expect(sentBy.every((count) => count > 0)).toBe(true);
  });
});
