import { randomUUID } from "node:crypto";
import { addDays, dayTotal } from "@charity-steps/shared-types";
import { afterAll, describe, expect, it } from "vitest";
import { Database } from "../../src/db/database.js";
import { createTestDatabase, dialects, freePort } from "../helper.js";
import { TEST_TODAY, useTestClock } from "../support/clock.js";
import { manualForm, multipartBody, photo } from "../support/steps.js";
import { type ApiProcess, newSessionSecret, openSessions, startApiProcess } from "./api-process.js";

/**
 * The API as a real process, killed with SIGKILL in the middle of a burst of syncs
 * and manual entries, then started again on the same database. Every request that was answered 2xx
 * must be in the database, nothing may be counted twice, and sending everything again (as the
 * walkers' outboxes do) must end at exactly the right totals.
 */
const ROUNDS = 3;
const WALKERS = 12;
const DAYS = 3;
const SYNCS_PER_DAY = 12;
const MANUAL_PER_WALKER = 3;

type Planned =
  | { kind: "sync"; walker: number; day: string; device: string; steps: number }
  | { kind: "manual"; walker: number; day: string; steps: number; key: string };

interface Figures {
  sent: number;
  acknowledged: number;
  lost: number;
  duplicates: number;
}

describe.each(dialects)("SIGKILL in the middle of a burst (%s)", (dialect) => {
  // The test's and the process's clock, so that their today is the same whatever the day.
  useTestClock();
  const figures: Figures = { sent: 0, acknowledged: 0, lost: 0, duplicates: 0 };
  afterAll(() => {
    console.log(
      `crash safety (${dialect}): ${ROUNDS} kills, ${figures.sent} requests sent, ${figures.acknowledged} answered 2xx before the kill; acknowledged steps lost: ${figures.lost}; counted twice: ${figures.duplicates}`,
    );
  });

  it.each(Array.from({ length: ROUNDS }, (_, round) => round + 1))(
    "round %i: keeps every acknowledged request and counts nothing twice",
    async (round) => {
      const testDb = await createTestDatabase(dialect, { migrated: true });
      const port = await freePort();
      const secret = newSessionSecret();
      let api: ApiProcess = await startApiProcess({ databaseUrl: testDb.url, port, sessionSecret: secret });
      const database = Database.connect(testDb.url);
      try {
        const cookies = await openSessions(database, WALKERS, "walker");
        const png = await photo("png");
        const plan = burstPlan();
        const send = (request: Planned, origin: string) => sendPlanned(request, origin, cookies, png);

        // The burst, from 8 clients at once; the process is killed part-way through.
        const acknowledged: Planned[] = [];
        const queue = [...plan];
        const clients = Array.from({ length: 8 }, async () => {
          for (let request = queue.shift(); request; request = queue.shift()) {
            figures.sent++;
            const status = await send(request, api.origin).catch(() => null);
            if (status !== null && status >= 200 && status < 300) acknowledged.push(request);
          }
        });
        // Killed once a fifth, two fifths, three fifths of the burst has been answered (by round).
        const killAt = Math.floor((plan.length * round) / (ROUNDS + 2));
        while (acknowledged.length < killAt && queue.length > 0) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await api.kill("SIGKILL");
        await Promise.all(clients);
        figures.acknowledged += acknowledged.length;
        expect(acknowledged.length, "some requests were answered before the kill").toBeGreaterThan(0);
        expect(acknowledged.length, "the kill came before the burst ended").toBeLessThan(plan.length);

        // Started again: every acknowledged request is there, and every day's total is its parts.
        api = await startApiProcess({ databaseUrl: testDb.url, port, sessionSecret: secret });
        const lost = await lostAcknowledged(database, acknowledged);
        figures.lost += lost.length;
        expect(lost).toEqual([]);
        const inconsistent = await daysNotMatchingTheirParts(database);
        figures.duplicates += inconsistent.length;
        expect(inconsistent).toEqual([]);

        // Everything sent again, in reverse order, from 8 clients at once as walkers' outboxes
        // would (they replay whatever was not acknowledged, and some of what was): the totals end
        // exactly right.
        const replay = [...plan].reverse();
        const refused: string[] = [];
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            for (let request = replay.shift(); request; request = replay.shift()) {
              const status = await send(request, api.origin);
              if (status >= 300) refused.push(`${request.kind} ${request.day}: ${status}`);
            }
          }),
        );
        expect(refused).toEqual([]);
        const totals = await dayTotals(database);
        const expected = expectedTotals(plan);
        const doubled = [...expected].filter(([key, steps]) => (totals.get(key) ?? 0) !== steps);
        figures.duplicates += doubled.length;
        expect(Object.fromEntries(totals)).toEqual(Object.fromEntries(expected));
      } finally {
        await api.kill("SIGTERM");
        await database.close();
        await testDb.drop();
      }
    },
    120_000,
  );
});

/** Rising counts from two devices per walker and day, and manual entries, interleaved. */
function burstPlan(): Planned[] {
  const today = TEST_TODAY;
  const plan: Planned[] = [];
  for (let step = 1; step <= SYNCS_PER_DAY; step++) {
    for (let walker = 0; walker < WALKERS; walker++) {
      for (let back = 0; back < DAYS; back++) {
        const device = step % 2 === 0 ? "phone" : "watch";
        plan.push({ kind: "sync", walker, day: addDays(today, -back), device, steps: step * 250 + walker });
      }
      if (step % Math.ceil(SYNCS_PER_DAY / MANUAL_PER_WALKER) === 0) {
        plan.push({ kind: "manual", walker, day: today, steps: 1000 + step, key: randomUUID() });
      }
    }
  }
  return plan;
}

/** Sends one planned request; its status, or an error naming the refusal when it is not 2xx. */
async function sendPlanned(
  request: Planned,
  origin: string,
  cookies: string[],
  png: Buffer,
): Promise<number> {
  const response = await fetchPlanned(request, origin, cookies, png);
  if (response.status >= 300) {
    throw new Error(`${request.kind} answered ${response.status}: ${await response.text()}`);
  }
  return response.status;
}

function fetchPlanned(request: Planned, origin: string, cookies: string[], png: Buffer): Promise<Response> {
  const cookie = cookies[request.walker] ?? "";
  if (request.kind === "sync") {
    return fetch(`${origin}/api/steps/sync`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json", "x-device-id": request.device },
      body: JSON.stringify({ steps: request.steps, date: request.day, source: "device_motion" }),
    });
  }
  const { body, contentType } = multipartBody(
    manualForm({ steps: String(request.steps), date: request.day }, { bytes: png }),
  );
  return fetch(`${origin}/api/steps/add-manual-verified`, {
    method: "POST",
    headers: { cookie, "content-type": contentType, "idempotency-key": request.key },
    body: new Uint8Array(body),
  });
}

async function walkerIds(database: Database): Promise<Map<string, number>> {
  const rows = await database.db.selectFrom("users").select(["id", "subject"]).execute();
  return new Map(rows.map((row) => [row.id, Number(row.subject.replace("walker-", ""))]));
}

/** Acknowledged requests the database does not hold (a counter below it, an entry missing). */
async function lostAcknowledged(database: Database, acknowledged: Planned[]): Promise<Planned[]> {
  const ids = await walkerIds(database);
  const counters = await database.db.selectFrom("step_counters").selectAll().execute();
  const entries = await database.db.selectFrom("manual_step_entries").selectAll().execute();
  const counter = new Map(
    counters.map((row) => [`${ids.get(row.user_id)}|${row.day}|${row.counter_id}`, row.steps]),
  );
  const keys = new Set(entries.map((row) => row.idempotency_key));
  return acknowledged.filter((request) =>
    request.kind === "sync"
      ? (counter.get(`${request.walker}|${request.day}|device:${request.device}`) ?? -1) < request.steps
      : !keys.has(request.key),
  );
}

/** Day rows whose total is not what their counters and manual entries add up to. */
async function daysNotMatchingTheirParts(database: Database): Promise<string[]> {
  const days = await database.db.selectFrom("step_days").selectAll().execute();
  const counters = await database.db.selectFrom("step_counters").selectAll().execute();
  const entries = await database.db.selectFrom("manual_step_entries").selectAll().execute();
  return days
    .filter((day) => {
      const mine = <T extends { user_id: string; day: string }>(row: T) =>
        row.user_id === day.user_id && row.day === day.day;
      const motion = counters
        .filter(mine)
        .filter((row) => row.kind === "motion")
        .reduce((sum, row) => sum + row.steps, 0);
      const manual = entries.filter(mine).reduce((sum, row) => sum + row.steps, 0);
      return day.total_steps !== dayTotal({ motion, health: 0, manual });
    })
    .map((day) => `${day.user_id} ${day.day}: ${day.total_steps}`);
}

async function dayTotals(database: Database): Promise<Map<string, number>> {
  const ids = await walkerIds(database);
  const rows = await database.db.selectFrom("step_days").selectAll().where("total_steps", ">", 0).execute();
  return new Map(rows.map((row) => [`${ids.get(row.user_id)}|${row.day}`, row.total_steps]));
}

/** Each walker's day: the largest count of each device, plus every manual entry once. */
function expectedTotals(plan: Planned[]): Map<string, number> {
  const devices = new Map<string, number>();
  const manual = new Map<string, number>();
  for (const request of plan) {
    const day = `${request.walker}|${request.day}`;
    if (request.kind === "sync") {
      const key = `${day}|${request.device}`;
      devices.set(key, Math.max(devices.get(key) ?? 0, request.steps));
    } else {
      manual.set(day, (manual.get(day) ?? 0) + request.steps);
    }
  }
  const totals = new Map<string, number>();
  for (const [key, steps] of devices) {
    const day = key.split("|").slice(0, 2).join("|");
    totals.set(day, (totals.get(day) ?? 0) + steps);
  }
  for (const [day, steps] of manual) totals.set(day, (totals.get(day) ?? 0) + steps);
  return new Map([...totals].map(([day, steps]) => [day, Math.min(50_000, steps)]));
}
