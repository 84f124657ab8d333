import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addDays } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Database } from "../../src/db/database.js";
import { MailOutboxRepository } from "../../src/repositories/mail-outbox.js";
import {
  createTestDatabase,
  dialects,
  freePort,
  newWalker,
  roundRobinProxy,
  signUp,
  TestBrowser,
  type TestDatabase,
} from "../helper.js";
import { TEST_TODAY, useTestClock } from "../support/clock.js";
import { type ApiProcess, newSessionSecret, openSessions, startApiProcess } from "./api-process.js";

/**
 * Two API processes on one PostgreSQL behind a proxy with no sticky sessions.
 * Many walkers sync through both at once, every count sent twice and out of order; the totals
 * must come out exact, and a session opened through one process must work on the other.
 */
const WALKERS = 40;
const DAYS = 4;
const DEVICES = ["phone", "watch"];
const COUNTS_PER_DEVICE = 6;

const postgresOnly = dialects.filter((dialect) => dialect === "postgres");

describe.skipIf(postgresOnly.length === 0)("two API processes on one PostgreSQL", () => {
  // The test's and the processes' clock, so that their today is the same whatever the day.
  useTestClock();
  let database: TestDatabase;
  let processes: ApiProcess[];
  let proxy: ReturnType<typeof roundRobinProxy>;
  let origin: string;
  let dataDirs: string[];

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const [proxyPort, ...ports] = [await freePort(), await freePort(), await freePort()];
    origin = `http://127.0.0.1:${proxyPort}`;
    const sessionSecret = newSessionSecret();
    dataDirs = await Promise.all(ports.map(() => mkdtemp(join(tmpdir(), "charity-steps-api-"))));
    // Started together: both migrate the same database and create the same secrets at once.
    processes = await Promise.all(
      ports.map((port, index) =>
        startApiProcess({
          databaseUrl: database.url,
          port,
          publicUrl: origin,
          sessionSecret,
          dataDir: dataDirs[index],
        }),
      ),
    );
    proxy = roundRobinProxy(ports);
    await new Promise<void>((resolve) => proxy.server.listen(proxyPort, "127.0.0.1", resolve));
  }, 120_000);

  afterAll(async () => {
    await new Promise((resolve) => proxy.server.close(resolve));
    await Promise.all(processes.map((api) => api.kill("SIGTERM")));
    await database.drop();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("opens a session through one process that the other honours", async () => {
    const browser = new TestBrowser();
    await signUp(browser, origin, newWalker({ firstName: "Proxied" }));
    const cookie = await browser.cookie(origin, "cs_session");
    expect(cookie).toBeTruthy();
    for (const api of processes) {
      const response = await fetch(`${api.origin}/api/auth/user`, {
        headers: { cookie: `cs_session=${cookie}` },
      });
      expect(response.status, api.origin).toBe(200);
      expect((await response.json()).firstName).toBe("Proxied");
    }
    expect(proxy.served.every((count) => count > 0)).toBe(true);
  });

  it("counts many walkers syncing through both, with duplicates and reordering, exactly", async () => {
    const db = Database.connect(database.url);
    try {
      const cookies = await openSessions(db, WALKERS, "proxied");

      const today = TEST_TODAY;
      const syncs: { walker: number; day: string; device: string; steps: number }[] = [];
      for (let walker = 0; walker < WALKERS; walker++) {
        for (let back = 0; back < DAYS; back++) {
          for (const device of DEVICES) {
            for (let count = 1; count <= COUNTS_PER_DEVICE; count++) {
              syncs.push({ walker, day: addDays(today, -back), device, steps: count * 300 + walker });
            }
          }
        }
      }
      // Every count twice, in a shuffled order (a fixed shuffle, so a failure can be repeated).
      const sent = [...syncs, ...syncs]
        .map((sync, index) => ({ sync, order: (index * 7919) % (syncs.length * 2 + 1) }))
        .sort((a, b) => a.order - b.order)
        .map(({ sync }) => sync);

      const queue = [...sent];
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: 24 }, async () => {
          for (let sync = queue.shift(); sync; sync = queue.shift()) {
            const response = await fetch(`${origin}/api/steps/sync`, {
              method: "POST",
              headers: {
                cookie: cookies[sync.walker] ?? "",
                "content-type": "application/json",
                "x-device-id": sync.device,
              },
              body: JSON.stringify({ steps: sync.steps, date: sync.day, source: "device_motion" }),
            });
            statuses.push(response.status);
          }
        }),
      );
      expect(statuses.filter((status) => status !== 200)).toEqual([]);

      // Each day: the largest count of each of the two devices.
      const expected = new Map<string, number>();
      for (let walker = 0; walker < WALKERS; walker++) {
        for (let back = 0; back < DAYS; back++) {
          expected.set(
            `${walker}|${addDays(today, -back)}`,
            DEVICES.length * (COUNTS_PER_DEVICE * 300 + walker),
          );
        }
      }
      const rows = await db.db
        .selectFrom("step_days")
        .innerJoin("users", "users.id", "step_days.user_id")
        .select(["users.subject", "step_days.day", "step_days.total_steps"])
        .where("users.subject", "like", "proxied-%")
        .execute();
      const totals = new Map(
        rows.map((row) => [`${row.subject.replace("proxied-", "")}|${row.day}`, row.total_steps]),
      );
      console.log(
        `two processes: ${sent.length} syncs from ${WALKERS} walkers through a round-robin proxy (${proxy.served.join(" / ")} requests per process); days exact: ${[...expected].filter(([key, steps]) => totals.get(key) === steps).length} of ${expected.size}`,
      );
      expect(Object.fromEntries(totals)).toEqual(Object.fromEntries(expected));

      // Each month row: the sum of its days, though the two processes moved it concurrently.
      const expectedMonths = new Map<string, number>();
      for (const [key, steps] of expected) {
        const [walker, day] = key.split("|") as [string, string];
        const month = `${walker}|${day.slice(0, 7)}`;
        expectedMonths.set(month, (expectedMonths.get(month) ?? 0) + steps);
      }
      const months = await db.db
        .selectFrom("step_months")
        .innerJoin("users", "users.id", "step_months.user_id")
        .select(["users.subject", "step_months.month", "step_months.total_steps"])
        .where("users.subject", "like", "proxied-%")
        .execute();
      expect(
        Object.fromEntries(
          months.map((row) => [
            `${row.subject.replace("proxied-", "")}|${row.month}`,
            Number(row.total_steps),
          ]),
        ),
      ).toEqual(Object.fromEntries(expectedMonths));
    } finally {
      await db.close();
    }
  }, 120_000);

  it("sends each queued mail once between the two processes", async () => {
    // Queued as any process's app.services.mail.send queues it; both workers find the rows on their next look.
    const queue = Database.connect(database.url);
    const ids: string[] = [];
    try {
      const outbox = new MailOutboxRepository(queue);
      for (let index = 0; index < 40; index += 1) {
        const subject = `Queued ${index}`;
        ids.push(
          await outbox.enqueue({
            to: `w${index}@example.org`,
            subject,
            text: subject,
            html: null,
            userId: null,
          }),
        );
      }
      // With no SMTP server each process writes what it sends into its own DATA_DIR/mail: a message
      // sent twice would be in both folders.
      const written = async () =>
        (
          await Promise.all(dataDirs.map((dir) => readdir(join(dir, "mail")).catch((): string[] => [])))
        ).flat();
      // Only this test's messages: the sign-ups above queued their own confirmation mail.
      const ours = async () =>
        (await written())
          .map((file) => /-([0-9a-f-]{36})\.eml$/.exec(file)?.[1])
          .filter((id) => ids.includes(id ?? ""));
      const deadline = Date.now() + 60_000;
      while ((await ours()).length < ids.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // Time for a second send of anything, were there one.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const sent = await ours();
      expect(sent).toHaveLength(ids.length);
      expect([...sent].sort()).toEqual([...ids].sort());
      const rows = await queue.db
        .selectFrom("mail_outbox")
        .select(["status", "attempts"])
        .where("id", "in", ids)
        .execute();
      expect(rows).toHaveLength(ids.length);
      expect(rows.every((row) => row.status === "sent" && Number(row.attempts) === 1)).toBe(true);
    } finally {
      await queue.close();
    }
  }, 90_000);
});
