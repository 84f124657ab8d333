/**
 * The queue of step syncs waiting for the server. Steps reach the server only through
 * here, from the page or the service worker, so a walk offline costs one request per day, and an
 * action leaves the queue only once the server has taken it (or refused it for good, into
 * deadLetters with the server's message).
 */
import {
  DAILY_STEP_MAX,
  type DayString,
  DEVICE_ID_HEADER,
  isCalendarDay,
  isHealthSource,
  type StepSyncRequest,
  type StepSyncResponse,
} from "@charity-steps/shared-types";
import { ApiError, apiRequest, type FetchLike } from "./api-client";
import { type DeadLetter, db, getDeviceId, type OutboxAction, STEP_SYNC_ACTION } from "./db";
import { bestCount, markSynced, unsyncedDays } from "./local-steps";

export const STEP_SYNC_PATH = "/api/steps/sync";
/** A request that has not answered after this long is treated as a network failure. */
export const SYNC_REQUEST_TIMEOUT_MS = 30_000;

export type SyncSource = StepSyncRequest["source"];

/**
 * The server keeps one counter per device for motion sources and one per health source; the outbox
 * keeps one pending sync per such counter and day, so a newer count for the same counter replaces
 * the older one.
 */
export function outboxKey(day: DayString, deviceId: string, source: SyncSource): string {
  const counter = isHealthSource(source) ? source : "motion";
  return `${day}|${deviceId}|${counter}`;
}

/**
 * Queues the device's whole count for a day. If a sync for the same day and counter is already
 * waiting, it is replaced by the larger of the two counts (counts only grow); resolves to the
 * pending action.
 */
export async function enqueueSync(
  day: DayString,
  steps: number,
  source: SyncSource = "device_motion",
  now: number = Date.now(),
): Promise<OutboxAction> {
  if (!isCalendarDay(day)) throw new RangeError(`${day} is not a calendar day (YYYY-MM-DD).`);
  if (!Number.isInteger(steps) || steps < 0 || steps > DAILY_STEP_MAX) {
    throw new RangeError(`Daily steps must be a whole number from 0 to ${DAILY_STEP_MAX}, got ${steps}.`);
  }
  const deviceId = await getDeviceId();
  const key = outboxKey(day, deviceId, source);
  return db.transaction("rw", db.outbox, async () => {
    const pending = await db.outbox.where("key").equals(key).first();
    if (pending?.id !== undefined) {
      if (steps <= pending.body.steps) return pending;
      const raised: OutboxAction = { ...pending, body: { steps, date: day, source }, updatedAt: now };
      await db.outbox.put(raised);
      return raised;
    }
    const action: OutboxAction = {
      type: STEP_SYNC_ACTION,
      key,
      deviceId,
      body: { steps, date: day, source },
      createdAt: now,
      updatedAt: now,
      attempts: 0,
    };
    const id = await db.outbox.add(action);
    return { ...action, id };
  });
}

/**
 * Queues every day (within the 30 days the server accepts) whose best local count is above 0 and
 * above what the server acknowledged. Resolves to the number of days queued.
 */
export async function enqueueUnsyncedDays(now: number = Date.now()): Promise<number> {
  const days = await unsyncedDays(now);
  for (const record of days) await enqueueSync(record.day, bestCount(record), "device_motion", now);
  return days.length;
}

export function pendingSyncs(): Promise<OutboxAction[]> {
  return db.outbox.toArray();
}

export function deadLetters(): Promise<DeadLetter[]> {
  return db.deadLetters.toArray();
}

export interface SyncAcknowledgement {
  day: DayString;
  steps: number;
  source: SyncSource;
  /** The server's answer. */
  response: StepSyncResponse;
}

export interface ReplaySummary {
  /** Actions the server took (2xx). */
  sent: number;
  /** Actions still waiting in the outbox after this replay. */
  kept: number;
  /** Actions the server refused for good (4xx other than 401, 408, 429). */
  deadLettered: number;
  /** Stopped at a 401: the actions wait until the walker signs in again. */
  signedOut: boolean;
  /** Stopped because a request failed on the network, timed out, or met something other than our API. */
  networkFailed: boolean;
  /** A 408, 429 or 5xx answered: worth trying again later. */
  serverFailed: boolean;
  acknowledged: SyncAcknowledgement[];
}

/** The replay kept actions for a reason that may pass (network, 408, 429, 5xx), not a sign-out. */
export function worthRetrying(summary: ReplaySummary): boolean {
  return summary.networkFailed || summary.serverFailed;
}

export interface ReplayOptions {
  fetch?: FetchLike;
  now?: () => number;
  timeoutMs?: number;
}

// Answers after which the action stays queued; any other 4xx is a refusal for good.
const RETRYABLE_STATUSES = new Set([401, 408, 429]);

type Outcome =
  | { kind: "sent"; ack: SyncAcknowledgement }
  | { kind: "kept"; stop: "signed_out" | "network" | "rate_limited" | null }
  | { kind: "dead" };

let running: Promise<ReplaySummary> | null = null;

/** The Web Lock every page and the service worker take to replay, so a day is sent once, not twice. */
export const OUTBOX_LOCK = "charity-steps-outbox";

/**
 * Sends each queued sync, oldest first. Only one replay runs at a time in a context (a call while
 * one is running gets that replay's summary) and, where Web Locks exist, across the pages and the
 * service worker: the next one waits and sends only what is still queued. Stops early on a network
 * failure, a 401 or a 429 (the rest would meet the same fate).
 */
export function replayOutbox(options: ReplayOptions = {}): Promise<ReplaySummary> {
  if (!running) {
    const locks = globalThis.navigator?.locks;
    const replay = locks
      ? new Promise<ReplaySummary>((resolve, reject) => {
          // The lock is held until this replay settles; its summary is passed out through resolve.
          locks.request(OUTBOX_LOCK, () => replayAll(options).then(resolve, reject)).catch(reject);
        })
      : replayAll(options);
    running = replay.finally(() => {
      running = null;
    });
  }
  return running;
}

async function replayAll(options: ReplayOptions): Promise<ReplaySummary> {
  const summary: ReplaySummary = {
    sent: 0,
    kept: 0,
    deadLettered: 0,
    signedOut: false,
    networkFailed: false,
    serverFailed: false,
    acknowledged: [],
  };
  const actions = await db.outbox.toArray();
  for (const action of actions) {
    const outcome = await sendAction(action, options);
    if (outcome.kind === "sent") {
      summary.sent += 1;
      summary.acknowledged.push(outcome.ack);
    } else if (outcome.kind === "dead") {
      summary.deadLettered += 1;
    } else {
      if (outcome.stop === "signed_out") summary.signedOut = true;
      else if (outcome.stop === "network") summary.networkFailed = true;
      else summary.serverFailed = true;
      if (outcome.stop) break;
    }
  }
  summary.kept = await db.outbox.count();
  return summary;
}

async function sendAction(action: OutboxAction, options: ReplayOptions): Promise<Outcome> {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? SYNC_REQUEST_TIMEOUT_MS;
  const signal = typeof AbortSignal.timeout === "function" ? AbortSignal.timeout(timeoutMs) : undefined;

  let response: Response;
  try {
    response = await apiRequest(
      "POST",
      STEP_SYNC_PATH,
      action.body,
      { [DEVICE_ID_HEADER]: action.deviceId },
      { fetch: options.fetch, signal },
    );
  } catch (error) {
    if (!(error instanceof ApiError)) {
      await noteAttempt(action, `network: ${error instanceof Error ? error.message : String(error)}`, now());
      return { kind: "kept", stop: "network" };
    }
    if (error.status >= 500 || RETRYABLE_STATUSES.has(error.status) || error.status < 400) {
      await noteAttempt(action, error.toString(), now());
      const stop = error.status === 401 ? "signed_out" : error.status === 429 ? "rate_limited" : null;
      return { kind: "kept", stop };
    }
    await moveToDeadLetters(action, error.status, error.message, now());
    return { kind: "dead" };
  }

  const body = (await response.json().catch(() => null)) as StepSyncResponse | null;
  // A 200 that is not our API's answer (a hotel wifi's sign-in page) has stored nothing.
  if (body?.ok !== true) {
    await noteAttempt(action, `${response.status}: not an answer from the step API`, now());
    return { kind: "kept", stop: "network" };
  }
  await acknowledge(action, now());
  return {
    kind: "sent",
    ack: { day: action.body.date, steps: action.body.steps, source: action.body.source, response: body },
  };
}

/**
 * Removes the action the server took, unless a larger count replaced it while the request was out:
 * that one still has to be sent. Records the acknowledged count on the day.
 */
async function acknowledge(sent: OutboxAction, now: number): Promise<void> {
  await db.transaction("rw", [db.outbox, db.days], async () => {
    if (sent.id === undefined) return;
    const current = await db.outbox.get(sent.id);
    if (current && current.body.steps <= sent.body.steps) await db.outbox.delete(sent.id);
    else if (current) await db.outbox.update(sent.id, { attempts: current.attempts + 1 });
    if (!isHealthSource(sent.body.source)) await markSynced(sent.body.date, sent.body.steps, now);
  });
}

async function noteAttempt(action: OutboxAction, lastError: string, now: number): Promise<void> {
  if (action.id === undefined) return;
  await db.transaction("rw", db.outbox, async () => {
    const current = await db.outbox.get(action.id as number);
    if (current)
      await db.outbox.update(current.id as number, {
        attempts: current.attempts + 1,
        lastError,
        updatedAt: now,
      });
  });
}

async function moveToDeadLetters(
  action: OutboxAction,
  status: number,
  message: string,
  now: number,
): Promise<void> {
  await db.transaction("rw", [db.outbox, db.deadLetters], async () => {
    await db.deadLetters.add({
      key: action.key,
      type: action.type,
      deviceId: action.deviceId,
      body: action.body,
      status,
      message,
      createdAt: action.createdAt,
      failedAt: now,
    });
    if (action.id === undefined) return;
    const current = await db.outbox.get(action.id);
    // A larger count queued meanwhile is a new request: let it meet the server on its own.
    if (current && current.body.steps <= action.body.steps) await db.outbox.delete(action.id);
  });
}
