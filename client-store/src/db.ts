/**
 * The walker's device storage: steps are kept here first so a walk with no signal loses
 * nothing, and both the page and the service worker read and write the same IndexedDB database.
 */
import {
  DAILY_STEP_MAX,
  type DayString,
  type MonthString,
  type StepSyncRequest,
} from "@charity-steps/shared-types";
import { Dexie, type EntityTable } from "dexie";

export const DATABASE_NAME = "charity-steps";

/**
 * The device's count for one London day. Only steps the motion detector counted are kept: time the
 * app spent in the background adds none.
 */
export interface DayRecord {
  day: DayString;
  /** Steps counted by the live motion detector while the app is open. */
  motion: number;
  /** The highest count the server has acknowledged for this day from this device. */
  synced: number;
  /** Epoch milliseconds of the last write. */
  updatedAt: number;
}

/** A day as version 2 stored it: beside the motion count, an estimate for time in the background. */
interface DayRecordV2 {
  day: DayString;
  motion: number;
  background?: number;
  synced: number;
  updatedAt: number;
}

/**
 * A day as version 1 of the database stored it: the detector wrote `real`; `local` and `backup`
 * were declared but never written by the app. Kept only to upgrade old rows.
 */
interface DayRecordV1 {
  day: DayString;
  local?: number;
  real?: number;
  background?: number;
  backup?: number;
  synced: number;
  updatedAt: number;
}

/** The device's own steps for a month: the sum of its days' best counts (see local-steps.ts). */
export interface MonthRecord {
  month: MonthString;
  steps: number;
  updatedAt: number;
}

export type HealthConnection = "disconnected" | "device_motion" | "apple_health" | "google_fit";

export interface BackgroundFlags {
  /** Counting was on when the app was hidden. */
  enabled: boolean;
  /** Epoch milliseconds when the app was last hidden while counting, to say how long counting paused. */
  hiddenAt: number | null;
}

/** Every key the meta table may hold, with the type of its value. */
export interface MetaValues {
  deviceId: string;
  cachedUserId: string | null;
  /** Epoch milliseconds of the last local step write. */
  lastUpdate: number;
  lastDailyReset: DayString;
  lastMonthlyReset: MonthString;
  healthConnection: HealthConnection;
  /** Group id → ISO timestamp the walker joined it. */
  joinDates: Record<string, string>;
  backgroundFlags: BackgroundFlags;
  /** A random id also kept in localStorage: when only localStorage still has it, IndexedDB was cleared. */
  storeMarker: string;
}
export type MetaKey = keyof MetaValues;

export type MetaRecord = { [K in MetaKey]: { key: K; value: MetaValues[K] } }[MetaKey];

export const STEP_SYNC_ACTION = "step_sync";

/** A queued `POST /api/steps/sync`; at most one per `key` (see outbox.ts). */
export interface OutboxAction {
  id?: number;
  type: typeof STEP_SYNC_ACTION;
  /** `${day}|${deviceId}|${counter}`: one pending sync per server counter. */
  key: string;
  deviceId: string;
  body: StepSyncRequest;
  createdAt: number;
  updatedAt: number;
  attempts: number;
  /** Why the last attempt did not leave the outbox, if one was made. */
  lastError?: string;
}

/** An action the server refused for good, kept with its answer so nothing vanishes unseen. */
export interface DeadLetter {
  id?: number;
  key: string;
  type: typeof STEP_SYNC_ACTION;
  deviceId: string;
  body: StepSyncRequest;
  status: number;
  message: string;
  createdAt: number;
  failedAt: number;
}

export class CharityStepsDatabase extends Dexie {
  days!: EntityTable<DayRecord, "day">;
  months!: EntityTable<MonthRecord, "month">;
  meta!: EntityTable<MetaRecord, "key">;
  outbox!: EntityTable<OutboxAction, "id">;
  deadLetters!: EntityTable<DeadLetter, "id">;

  constructor(name = DATABASE_NAME) {
    super(name);
    // Keep every version: browsers still on an older one upgrade through each step in turn.
    this.version(1).stores({
      days: "day",
      months: "month",
      meta: "key",
      outbox: "++id, &key",
      deadLetters: "++id, key",
    });
    // Day counters named for what they hold: `real` becomes `motion`; `local` and `backup` go, their
    // values folded into `motion` so that no day's count changes.
    this.version(2)
      .stores({ days: "day" })
      .upgrade((tx) =>
        tx
          .table("days")
          .toCollection()
          .modify((row: DayRecordV1 & Partial<DayRecordV2>) => {
            row.motion = Math.max(...[row.local, row.real, row.backup].map(validSteps));
            row.background = validSteps(row.background);
            delete row.local;
            delete row.real;
            delete row.backup;
          }),
      );
    // No invented steps: the estimate for time in the background goes. What the server already
    // acknowledged stays (nothing it has is taken back, and the device's count does not fall below
    // it); an estimate not yet sent is never sent. Syncs queued from an estimate are dropped: the
    // sync engine queues the day's real count again.
    this.version(3)
      .stores({ days: "day" })
      .upgrade(async (tx) => {
        await tx
          .table("days")
          .toCollection()
          .modify((row: DayRecordV2) => {
            const acknowledgedEstimate = Math.min(validSteps(row.background), validSteps(row.synced));
            row.motion = Math.max(validSteps(row.motion), acknowledgedEstimate);
            delete row.background;
          });
        await tx
          .table("outbox")
          .filter((action: OutboxAction) => (action.body.source as string) === "background_device_motion")
          .delete();
      });
  }
}

/** True for a daily step value the device may store: a whole number from 0 to 50,000. */
export function isValidDailySteps(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= DAILY_STEP_MAX;
}

// A counter holding something other than a daily step value has always counted as nothing.
function validSteps(value: unknown): number {
  return isValidDailySteps(value) ? value : 0;
}

export const db = new CharityStepsDatabase();

export async function getMeta<K extends MetaKey>(key: K): Promise<MetaValues[K] | undefined> {
  const record = await db.meta.get(key);
  return record?.value as MetaValues[K] | undefined;
}

export async function setMeta<K extends MetaKey>(key: K, value: MetaValues[K]): Promise<void> {
  await db.meta.put({ key, value } as MetaRecord);
}

/**
 * This device's id for the `X-Device-Id` header: random, made once, then kept. Made inside a
 * transaction so two tabs starting together still agree on one id.
 */
export function getDeviceId(): Promise<string> {
  return db.transaction("rw", db.meta, async () => {
    const existing = await getMeta("deviceId");
    if (existing) return existing;
    const deviceId = randomDeviceId();
    await setMeta("deviceId", deviceId);
    return deviceId;
  });
}

// getRandomValues also works outside secure contexts (plain http on a LAN), unlike randomUUID.
function randomDeviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
