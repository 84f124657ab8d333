import { randomUUID } from "node:crypto";
import { dayTotal, monthOfDay } from "@charity-steps/shared-types";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../helper.js";
import { manualForm, photo, stepsClient } from "../support/steps.js";

// Midday on 2 November 2026: the window holds the end of October and the start of November.
const NOW = new Date("2026-11-02T12:00:00Z");
const TODAY = "2026-11-02";
const DAYS = ["2026-10-30", "2026-10-31", "2026-11-01", TODAY] as const;
/**
 * Counters may take a day past the cap, and a manual entry that would is refused, so whether one is
 * taken depends on the order of the writes: manual entries get a day of their own, on which they can
 * never reach the cap (at most 10 of at most 5,000), and racing syncs are left to the concurrency tests.
 */
const SYNC_DAYS = DAYS.slice(1);
const MANUAL_DAY = DAYS[0];

type SyncOp = {
  kind: "sync";
  route: "sync" | "sync-background" | "sync-local" | "realtime";
  device: string | null;
  source: string;
  date: string;
  steps: number;
};
type ManualOp = { kind: "manual"; key: string; date: string; steps: number; note: string };
type Op = SyncOp | ManualOp;

const stepsArb = fc.oneof(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 12_000 }));
const syncOp: fc.Arbitrary<SyncOp> = fc
  .record({
    route: fc.constantFrom("sync", "sync-background", "sync-local", "realtime" as const),
    device: fc.constantFrom(null, "phone", "watch"),
    source: fc.constantFrom(
      "device_motion",
      "background_device_motion",
      "local_tracker",
      "apple_health",
      "google_fit",
    ),
    date: fc.constantFrom(...SYNC_DAYS),
    steps: stepsArb,
  })
  // Real-time counts are always for London today.
  .map((op) => ({ kind: "sync" as const, ...op, date: op.route === "realtime" ? TODAY : op.date }));
const manualOp: fc.Arbitrary<ManualOp> = fc.record({
  kind: fc.constant("manual" as const),
  key: fc.uuid(),
  date: fc.constant(MANUAL_DAY),
  steps: fc.integer({ min: 1, max: 5_000 }),
  note: fc.constantFrom("", "walk to work", "  hike  "),
});

/** A sequence of writes, and the same writes shuffled with some sent again. */
const scenario = fc
  .array(fc.oneof({ weight: 4, arbitrary: syncOp }, { weight: 1, arbitrary: manualOp }), {
    minLength: 1,
    maxLength: 10,
  })
  .chain((ops) =>
    fc.array(fc.constantFrom(...ops), { maxLength: 8 }).chain((again) => {
      const all = [...ops, ...again];
      return fc.tuple(
        fc.constant(ops),
        fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }),
      );
    }),
  );

/** What the ledger must hold after `ops`, computed without the server. */
function expectedDays(ops: Op[]): Map<string, number> {
  const counters = new Map<string, { day: string; kind: "motion" | "health"; steps: number }>();
  const manual = new Map<string, ManualOp>();
  for (const op of ops) {
    if (op.kind === "manual") {
      if (!manual.has(op.key)) manual.set(op.key, op);
      continue;
    }
    const health = op.source === "apple_health" || op.source === "google_fit";
    const id = `${op.date}|${health ? `health:${op.source}` : `device:${op.device ?? "default"}`}`;
    const steps = Math.max(counters.get(id)?.steps ?? 0, op.steps);
    counters.set(id, { day: op.date, kind: health ? "health" : "motion", steps });
  }
  const days = new Map<string, number>();
  for (const day of DAYS) {
    const dayCounters = [...counters.values()].filter((c) => c.day === day);
    const parts = {
      motion: dayCounters.filter((c) => c.kind === "motion").reduce((sum, c) => sum + c.steps, 0),
      health: Math.max(0, ...dayCounters.filter((c) => c.kind === "health").map((c) => c.steps)),
      manual: [...manual.values()].filter((m) => m.date === day).reduce((sum, m) => sum + m.steps, 0),
    };
    days.set(day, dayTotal(parts));
  }
  return days;
}

describe.each(dialects)("the step ledger's totals do not depend on order or replays (%s)", (dialect) => {
  let testApp: TestApp;
  let png: Buffer;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    testApp = await buildTestApp(dialect);
    png = await photo("png", 8, 8);
  });
  afterAll(async () => {
    await testApp.close();
    vi.useRealTimers();
  });

  const walkerApplying = async (ops: Op[]) => {
    const walker = await createSignedInWalker(testApp.app);
    const api = stepsClient(testApp.app, walker.cookie);
    for (const op of ops) {
      const response = await send(api, walker.user.id, op);
      expect(response.statusCode, JSON.stringify(op)).toBe(op.kind === "manual" ? 201 : 200);
    }
    return { ...walker, api };
  };

  const send = (api: ReturnType<typeof stepsClient>, userId: string, op: Op) => {
    if (op.kind === "manual") {
      return api.addManual(
        manualForm({ steps: String(op.steps), date: op.date, note: op.note }, { bytes: png }),
        op.key,
      );
    }
    const device: Record<string, string> = op.device ? { "x-device-id": op.device } : {};
    const { steps, date, source } = op;
    switch (op.route) {
      case "realtime":
        return api.post("/api/steps/realtime", { steps, source }, device);
      case "sync-local":
        return api.post("/api/steps/sync-local", { userId, steps, date, source }, device);
      default:
        return api.post(`/api/steps/${op.route}`, { steps, date, source }, device);
    }
  };

  const totalsOf = async (api: ReturnType<typeof stepsClient>) => {
    const { days } = (await api.get("/api/steps/history")).json() as {
      days: { date: string; steps: number }[];
    };
    const month = (await api.get("/api/steps/monthly")).json().steps as number;
    return {
      days: new Map(days.filter((d) => DAYS.includes(d.date as never)).map((d) => [d.date, d.steps])),
      month,
    };
  };

  it("shuffled and replayed writes end at the totals of the writes applied once, in order", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ([ops, replayed]) => {
        const once = await walkerApplying(ops);
        const shuffled = await walkerApplying(replayed);
        const expected = expectedDays(ops);
        const expectedMonth = DAYS.filter((d) => monthOfDay(d) === "2026-11").reduce(
          (s, d) => s + (expected.get(d) ?? 0),
          0,
        );

        for (const walker of [once, shuffled]) {
          const totals = await totalsOf(walker.api);
          expect(totals.days).toEqual(expected);
          expect(totals.month).toBe(expectedMonth);
          const rows = await testApp.app.database.db
            .selectFrom("step_days")
            .select("total_steps")
            .where("user_id", "=", walker.user.id)
            .execute();
          expect(rows.every((row) => row.total_steps <= 50_000)).toBe(true);
          // Each month row: the sum of its day rows, and its latest day with steps.
          const { db } = testApp.app.database;
          const months = await db
            .selectFrom("step_months")
            .select(["month", "total_steps", "last_day", "last_day_steps"])
            .where("user_id", "=", walker.user.id)
            .where("total_steps", ">", 0)
            .orderBy("month")
            .execute();
          const days = await db
            .selectFrom("step_days")
            .select(["month", "day", "total_steps"])
            .where("user_id", "=", walker.user.id)
            .where("total_steps", ">", 0)
            .orderBy("day")
            .execute();
          const fromDays = new Map<string, { total: number; lastDay: string; lastDaySteps: number }>();
          for (const day of days) {
            const month = fromDays.get(day.month);
            fromDays.set(day.month, {
              total: (month?.total ?? 0) + day.total_steps,
              lastDay: day.day,
              lastDaySteps: day.total_steps,
            });
          }
          expect(
            months.map((row) => [row.month, Number(row.total_steps), row.last_day, row.last_day_steps]),
          ).toEqual([...fromDays].map(([month, m]) => [month, m.total, m.lastDay, m.lastDaySteps]));
        }
      }),
      { numRuns: 40 },
    );
  });

  it("the model agrees with a hand-worked day", () => {
    const ops: Op[] = [
      { kind: "sync", route: "sync", device: "phone", source: "device_motion", date: TODAY, steps: 4_000 },
      { kind: "sync", route: "sync", device: "watch", source: "device_motion", date: TODAY, steps: 3_000 },
      { kind: "sync", route: "sync", device: null, source: "apple_health", date: TODAY, steps: 6_500 },
      { kind: "manual", key: randomUUID(), date: TODAY, steps: 2_000, note: "" },
    ];
    expect(expectedDays(ops).get(TODAY)).toBe(9_000);
  });
});
