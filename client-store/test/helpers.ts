// Test files import "fake-indexeddb/auto" first of all: Dexie looks for indexedDB when db.ts loads.
import { db } from "../src/db";

/** An empty database for each test: the real Dexie schema over fake-indexeddb. */
export async function freshDatabase(): Promise<void> {
  db.close();
  await db.delete({ disableAutoOpen: false });
  await db.open();
}

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export type Answer = { status: number; body?: unknown } | "network-error";

/**
 * A stand-in for the server, for the tests of every package that sends steps: records every request and answers the next queued answer (or the
 * `fallback` once the queue is empty).
 */
export function fakeServer(answers: Answer[] = [], fallback: Answer = { status: 200 }) {
  const requests: RecordedRequest[] = [];
  const queue = [...answers];
  const fetch = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const body = typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({
      url,
      method: init.method ?? "GET",
      headers: new Headers(init.headers),
      body,
      credentials: init.credentials,
    });
    const answer = queue.shift() ?? fallback;
    if (answer === "network-error") throw new TypeError("Failed to fetch");
    const payload = answer.body ?? defaultBody(url, body);
    return new Response(JSON.stringify(payload), {
      status: answer.status,
      headers: { "Content-Type": "application/json" },
    });
  };
  /** The step counts of the syncs sent so far, in order. */
  const steps = () =>
    requests
      .filter((request) => request.url === "/api/steps/sync")
      .map((request) => (request.body as { steps: number }).steps);
  return { fetch, requests, steps };
}

function defaultBody(url: string, body: unknown): unknown {
  if (url === "/api/steps/sync" && typeof body === "object" && body !== null) {
    const { steps, date } = body as { steps: number; date: string };
    return { ok: true, date, daySteps: steps, todaySteps: steps, monthlySteps: steps };
  }
  if (url === "/api/daily-reset") return { message: "Daily reset done", recordsDeleted: 0 };
  if (url === "/api/monthly-reset") return { message: "Monthly reset done" };
  return {};
}
