import Fastify from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Database } from "../../src/db/database.js";
import { mailLayout } from "../../src/mail/mail.js";
import { MailQueue, type MailQueueOptions, RETRY_DELAYS_MS } from "../../src/mail/queue.js";
import { createMailTransport } from "../../src/mail/transport.js";
import { MailOutboxRepository } from "../../src/repositories/mail-outbox.js";
import { UsersRepository } from "../../src/repositories/users.js";
import { createTestDatabase, dialects, freePort, type TestDatabase } from "../helper.js";
import { logCapture, startSmtpServer, type TestSmtpServer } from "../support/smtp-server.js";

const FROM = "Charity Steps <no-reply@steps.example.org>";

/** The queue's worker driven by hand, on a clock the test moves. */
describe.each(dialects)("mail queue (%s)", (dialect) => {
  let database: TestDatabase;
  let db: Database;
  let outbox: MailOutboxRepository;
  let servers: TestSmtpServer[] = [];
  let now = Date.UTC(2026, 5, 1, 9);

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { migrated: true });
    db = Database.connect(database.url);
    await db.migrateToLatest();
    outbox = new MailOutboxRepository(db);
  });

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
    await db.db.deleteFrom("mail_outbox").execute();
  });

  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  function queueFor(smtpUrl: string | null, options: Partial<MailQueueOptions> = {}) {
    const capture = logCapture();
    const log = Fastify({ logger: { level: "info", stream: capture.stream } }).log;
    const transport = createMailTransport({
      smtpUrl,
      mailFrom: FROM,
      dataDir: "/nonexistent",
      log,
      sendTimeoutMs: 5_000,
    });
    const queue = new MailQueue(outbox, transport, log, { clock: () => now, ...options });
    return { queue, logs: capture.lines };
  }

  async function server(options: Parameters<typeof startSmtpServer>[0] = {}) {
    const started = await startSmtpServer(options);
    servers.push(started);
    return started;
  }

  async function onlyRow() {
    const rows = await db.db.selectFrom("mail_outbox").select("id").execute();
    expect(rows).toHaveLength(1);
    const row = await outbox.find(rows[0]?.id ?? "");
    if (!row) throw new Error("no row");
    return row;
  }

  it("is idle only once every look asked for has ended, a mail queued during a look included", async () => {
    const smtp = await server();
    // One mail a look: the second can only go in the look asked for while the first's ran.
    const { queue } = queueFor(smtp.url, { perTick: 1 });
    queue.start();
    try {
      // The worker's first look starts as it does; each mail queued wakes it again.
      await queue.send({ to: "first@example.org", subject: "First", text: "Hello" });
      await queue.send({ to: "second@example.org", subject: "Second", text: "Hello" });
      await queue.idle();
      expect(smtp.received.map((mail) => mail.subject).sort()).toEqual(["First", "Second"]);
    } finally {
      await queue.stop();
    }
  });

  it("retries with growing waits while the server is down, then delivers once it is back", async () => {
    const port = await freePort();
    const url = `smtp://mailer:s3cret-pass@127.0.0.1:${port}`;
    const { queue, logs } = queueFor(url);
    const start = now;
    await queue.send({ to: "walker@example.org", subject: "Reset your password", text: "Hello" });

    expect(await queue.runOnce()).toBe(1);
    let row = await onlyRow();
    expect(row).toMatchObject({
      status: "pending",
      attempts: 1,
      next_attempt_at: start + RETRY_DELAYS_MS[0],
    });
    expect(row.last_error).toBeTruthy();
    expect(logs.some((line) => line.level === 40 && line.msg === "mail not delivered: will retry")).toBe(
      true,
    );

    // Not due yet: nothing is tried.
    now += RETRY_DELAYS_MS[0] - 1;
    expect(await queue.runOnce()).toBe(0);

    now += 1;
    expect(await queue.runOnce()).toBe(1);
    row = await onlyRow();
    expect(row).toMatchObject({ status: "pending", attempts: 2, next_attempt_at: now + RETRY_DELAYS_MS[1] });

    const smtp = await server({ port });
    now += RETRY_DELAYS_MS[1];
    expect(await queue.runOnce()).toBe(1);
    row = await onlyRow();
    expect(row).toMatchObject({ status: "sent", attempts: 3, sent_at: now, last_error: null });
    expect(smtp.received.map((mail) => mail.subject)).toEqual(["Reset your password"]);
    expect(await queue.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it("gives up after the last attempt, keeps the message as failed and logs an error", async () => {
    const url = `smtp://mailer:s3cret-pass@127.0.0.1:${await freePort()}`;
    const { queue, logs } = queueFor(url);
    await queue.send({ to: "walker@example.org", subject: "Confirm your email", text: "Hello" });
    for (const delay of RETRY_DELAYS_MS) {
      expect(await queue.runOnce()).toBe(1);
      now += delay;
    }
    expect(await queue.runOnce()).toBe(1);
    const row = await onlyRow();
    expect(row).toMatchObject({ status: "failed", attempts: RETRY_DELAYS_MS.length + 1 });
    expect(row.text).toBe("Hello");
    now += 24 * 3_600_000;
    expect(await queue.runOnce()).toBe(0);
    const errors = logs.filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      mailId: row.id,
      msg: "mail not delivered after its last attempt: kept as failed",
    });
  });

  it("keeps a message the server refuses for good as failed at once, and logs an error", async () => {
    const smtp = await server({
      refuseRecipient: (address) => (address.startsWith("gone") ? 550 : undefined),
    });
    const { queue, logs } = queueFor(smtp.url);
    await queue.send({ to: "gone@example.org", subject: "Hello", text: "Hello" });
    expect(await queue.runOnce()).toBe(1);
    const row = await onlyRow();
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row.last_error).toMatch(/550|unavailable/);
    expect(logs.filter((line) => line.level === 50)).toMatchObject([
      { mailId: row.id, msg: "mail refused by the server: kept as failed" },
    ]);
    expect(smtp.received).toHaveLength(0);
    now += 7 * 24 * 3_600_000;
    expect(await queue.runOnce()).toBe(0);
  });

  it("sends a message whose sender died holding it once the lease has run out, and only then", async () => {
    const smtp = await server();
    const { queue } = queueFor(smtp.url, { leaseMs: 60_000 });
    await queue.send({ to: "walker@example.org", subject: "Held", text: "Hello" });
    // Another process claims it and dies before sending.
    const claimed = await outbox.claimNext(60_000, now);
    expect(claimed?.attempts).toBe(1);
    expect(await queue.runOnce()).toBe(0);
    now += 60_000;
    expect(await queue.runOnce()).toBe(0);
    now += 1;
    expect(await queue.runOnce()).toBe(1);
    expect(await onlyRow()).toMatchObject({ status: "sent", attempts: 2 });
    expect(smtp.received).toHaveLength(1);
    // The dead process's late word changes nothing: its lease is gone.
    if (!claimed) throw new Error("not claimed");
    expect(await outbox.markAttemptFailed(claimed, "late", now)).toBe(false);
    expect(await outbox.markSent(claimed, now)).toBe(false);
    expect(await onlyRow()).toMatchObject({ status: "sent" });
  });

  it("sends at most its batch per look", async () => {
    const smtp = await server();
    const { queue } = queueFor(smtp.url, { perTick: 3 });
    for (let index = 0; index < 5; index++) {
      await queue.send({ to: `walker${index}@example.org`, subject: `Message ${index}`, text: "Hello" });
    }
    expect(await queue.runOnce()).toBe(3);
    expect(await queue.runOnce()).toBe(2);
    expect(smtp.received.map((mail) => mail.subject).sort()).toEqual(
      [0, 1, 2, 3, 4].map((index) => `Message ${index}`),
    );
  });

  it("refuses a message out of bounds without queueing it", async () => {
    const { queue } = queueFor(null);
    const ok = { to: "walker@example.org", subject: "Hello", text: "Hello" };
    await expect(queue.send({ ...ok, subject: "x".repeat(201) })).rejects.toThrow(/200 characters/);
    await expect(queue.send({ ...ok, subject: "Hello\r\nBcc: all@example.org" })).rejects.toThrow(/lines/);
    await expect(queue.send({ ...ok, text: "é".repeat(50_001) })).rejects.toThrow(/100000 bytes/);
    await expect(queue.send({ ...ok, html: "x".repeat(100_001) })).rejects.toThrow(/100000 bytes/);
    await expect(queue.send({ ...ok, to: "a@example.org, b@example.org" })).rejects.toThrow(
      /one plain address/,
    );
    await expect(queue.send({ ...ok, to: "Ada <a@example.org>" })).rejects.toThrow(/one plain address/);
    await queue.send({ ...ok, subject: "x".repeat(200), text: "x".repeat(100_000) });
    expect(await db.db.selectFrom("mail_outbox").select("subject").execute()).toHaveLength(1);
  });

  it("erases a walker's mail, and housekeeping forgets sent mail after 30 days but keeps failures", async () => {
    const users = new UsersRepository(db.db);
    const walker = async (name: string) => {
      const user = await users.upsertFromIdentity({
        issuer: "https://issuer.test",
        subject: `${name}-${dialect}`,
        email: `${name}@example.org`,
        firstName: name,
        lastName: null,
        pictureUrl: null,
      });
      return user.id;
    };
    const ada = await walker("ada");
    const bo = await walker("bo");
    const smtp = await server({
      refuseRecipient: (address) => (address.startsWith("gone") ? 550 : undefined),
    });
    const { queue } = queueFor(smtp.url);
    await queue.send({ to: "ada@example.org", subject: "One", text: "x", userId: ada });
    await queue.send({ to: "ada@example.org", subject: "Two", text: "x", userId: ada });
    await queue.send({ to: "bo@example.org", subject: "Three", text: "x", userId: bo });
    await queue.send({ to: "gone@example.org", subject: "Four", text: "x" });
    await queue.deleteForUser(ada);
    const left = await db.db
      .selectFrom("mail_outbox")
      .select(["subject", "user_id"])
      .orderBy("subject")
      .execute();
    expect(left).toEqual([
      { subject: "Four", user_id: null },
      { subject: "Three", user_id: bo },
    ]);

    expect(await queue.runOnce()).toBe(2);
    const rows = await db.db.selectFrom("mail_outbox").selectAll().orderBy("subject").execute();
    expect(rows).toMatchObject([
      { subject: "Four", status: "failed", text: "x" },
      { subject: "Three", status: "sent", text: "", html: null },
    ]);
    expect(await outbox.deleteSentBefore(now - 1)).toBe(0);
    expect(await outbox.deleteSentBefore(now + 1)).toBe(1);
    const kept = await db.db.selectFrom("mail_outbox").select(["subject", "status"]).execute();
    expect(kept).toEqual([{ subject: "Four", status: "failed" }]);
  });
});

describe("mailLayout", () => {
  it("writes the same words as text and as escaped HTML, with the action as a link", () => {
    const { text, html } = mailLayout({
      greeting: "Hello Ada <script>,",
      paragraphs: [
        "Someone asked to reset the password of your account.",
        "If it was not you, ignore this mail.",
      ],
      action: { label: "Choose a new password", url: 'https://steps.example.org/reset?token=a&b="c"' },
    });
    expect(text).toBe(
      [
        "Hello Ada <script>,",
        "Someone asked to reset the password of your account.",
        "If it was not you, ignore this mail.",
        'Choose a new password:\nhttps://steps.example.org/reset?token=a&b="c"',
        "The Charity Steps team\n",
      ].join("\n\n"),
    );
    expect(html).toContain("Hello Ada &lt;script&gt;,");
    expect(html).not.toContain("<script>");
    expect(html).toContain('href="https://steps.example.org/reset?token=a&amp;b=&quot;c&quot;"');
    expect(html).toContain(">Choose a new password</a>");
    expect(html).not.toMatch(/<img|<link|src=|url\(/i);
  });

  it("takes its own closing and refuses an action that is not http(s)", () => {
    expect(mailLayout({ greeting: "Hi,", paragraphs: [], closing: "Walk on" }).text).toBe("Hi,\n\nWalk on\n");
    expect(() =>
      mailLayout({ greeting: "Hi,", paragraphs: [], action: { label: "Go", url: "javascript:alert(1)" } }),
    ).toThrow(/http/);
  });
});
