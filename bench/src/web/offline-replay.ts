import { addDays, londonDay, londonMonth } from "@charity-steps/shared-types";
import { bounded, type Figure } from "../figure.js";

/**
 * Offline replay with the real sync engine: client-store's Dexie code over
 * fake-indexeddb in Node, against the real local server with the walker's session cookie.
 */
type ClientStore = typeof import("@charity-steps/client-store/db") &
  typeof import("@charity-steps/client-store/local-steps") &
  typeof import("@charity-steps/client-store/outbox");

let loaded: Promise<ClientStore> | null = null;

/** Loaded on first use, so that only this measurement puts a fake indexedDB in the bench process. */
function clientStore(): Promise<ClientStore> {
  loaded ??= (async () => {
    // Dexie looks for indexedDB when db.ts loads, so the fake goes in first.
    await import("fake-indexeddb/auto");
    const [db, localSteps, outbox] = await Promise.all([
      import("@charity-steps/client-store/db"),
      import("@charity-steps/client-store/local-steps"),
      import("@charity-steps/client-store/outbox"),
    ]);
    return { ...db, ...localSteps, ...outbox };
  })();
  return loaded;
}

export interface ReplayScenario {
  /** Figure name prefix, e.g. "offline replay, 1 day". */
  label: string;
  days: number;
  stepsPerDay: number;
  /** Steps per tracker batch: each batch is one addSteps + enqueueSync, as onSteps does. */
  stepsPerBatch: number;
}

async function serverGet<T>(origin: string, cookie: string, path: string): Promise<T> {
  const response = await fetch(`${origin}${path}`, { headers: { Cookie: cookie } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function measureOfflineReplay(
  origin: string,
  cookie: string,
  scenario: ReplayScenario,
  quick: boolean,
): Promise<Figure[]> {
  const store = await clientStore();
  // A fresh device: empty database (and so a new device id) for each scenario.
  store.db.close();
  await store.db.delete({ disableAutoOpen: false });
  await store.db.open();

  const today = londonDay();
  const days = Array.from({ length: scenario.days }, (_, index) =>
    addDays(today, index - (scenario.days - 1)),
  );
  const batches = scenario.stepsPerDay / scenario.stepsPerBatch;
  if (!Number.isInteger(batches)) throw new Error("stepsPerDay must be a multiple of stepsPerBatch");

  // Offline: the tracker writes each batch to the day and keeps the day's latest count queued.
  const writeStarted = performance.now();
  for (const day of days) {
    for (let batch = 0; batch < batches; batch += 1) {
      const now = Date.now();
      const total = await store.addSteps(day, scenario.stepsPerBatch, now);
      await store.enqueueSync(day, total, "device_motion", now);
    }
  }
  const writeMs = performance.now() - writeStarted;
  const queued = (await store.pendingSyncs()).length;

  // The network is back: one replay, every request counted.
  let stepRequests = 0;
  const countingFetch = (input: string, init: RequestInit) => {
    if (input === store.STEP_SYNC_PATH) stepRequests += 1;
    const headers = { ...(init.headers as Record<string, string>), Cookie: cookie, Origin: origin };
    return fetch(`${origin}${input}`, { ...init, headers });
  };
  const started = performance.now();
  const summary = await store.replayOutbox({ fetch: countingFetch });
  const drainMs = performance.now() - started;
  const left = (await store.pendingSyncs()).length;
  if (summary.deadLettered || summary.networkFailed || summary.serverFailed) {
    throw new Error(`replay did not go through: ${JSON.stringify(summary)}`);
  }

  // What the server now holds for the walker.
  const history = await serverGet<{ days: { date: string; steps: number }[] }>(
    origin,
    cookie,
    "/api/steps/history",
  );
  const monthly = await serverGet<{ month: string; steps: number }>(origin, cookie, "/api/steps/monthly");
  const expectedTotal = scenario.days * scenario.stepsPerDay;
  const historyTotal = history.days.reduce((sum, day) => sum + day.steps, 0);
  const perDayRight = days.every(
    (day) => history.days.find((entry) => entry.date === day)?.steps === scenario.stepsPerDay,
  );
  const month = londonMonth();
  const expectedMonth = days.filter((day) => day.startsWith(month)).length * scenario.stepsPerDay;
  const totalsRight = historyTotal === expectedTotal && perDayRight && monthly.steps === expectedMonth;

  const work = `${days.length * batches} batches of ${scenario.stepsPerBatch} written offline in ${Math.round(writeMs)} ms, ${queued} queued`;
  return [
    bounded(
      {
        name: `${scenario.label}: step requests on reconnect`,
        value: stepRequests,
        unit: "requests",
        limit: scenario.days,
        note: `${work}; ${summary.sent} sent, ${left} left`,
      },
      quick,
    ),
    bounded(
      {
        name: `${scenario.label}: outbox drained`,
        value: left === 0 ? Math.round(drainMs * 10) / 10 : null,
        unit: "ms",
        limit: 1000,
        ...(left === 0 ? {} : { note: `${left} actions still queued after the replay` }),
      },
      quick,
    ),
    {
      ...bounded(
        {
          name: `${scenario.label}: server total`,
          value: historyTotal,
          unit: "steps",
          limit: expectedTotal,
          budget: `= ${expectedTotal} (month ${expectedMonth})`,
          note: `history ${historyTotal}, month ${monthly.steps}, each day ${perDayRight ? "right" : "WRONG"}`,
        },
        quick,
      ),
      pass: quick ? null : totalsRight,
    },
  ];
}
