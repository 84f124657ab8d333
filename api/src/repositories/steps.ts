import type { DayString, MonthString } from "@charity-steps/shared-types";
import type { Database } from "../db/database.js";
import {
  ManualEntries,
  type ManualEntryOutcome,
  type ManualEntryRefusal,
  type ManualEntryRequest,
  type NewManualEntry,
} from "./manual-entries.js";
import { type CounterReading, StepLedger, type WalkerTotals } from "./step-ledger.js";
import { StepPhotos, type StoredPhoto } from "./step-photos.js";

export type { CounterReading } from "./step-ledger.js";

/**
 * Everything the step routes ask of the database, each job in its own module: the ledger's
 * counters and totals (`step-ledger.ts`, counting a day by `ledger-rule.ts`), manual entries with
 * their replays (`manual-entries.ts`), and their proof photos (`step-photos.ts`).
 */
export class StepsRepository {
  /**
   * Awaited before any step is stored, with the days about to be written: the draws close a month
   * past its close here, so that its tickets are counted from the steps stored before it.
   */
  beforeWrite: (days: DayString[], now: number) => Promise<void> = async () => {};

  private constructor(
    readonly ledger: StepLedger,
    readonly manualEntries: ManualEntries,
    readonly photos: StepPhotos,
  ) {}

  /** Opens the step ledger (on PostgreSQL, installing its functions first). */
  static async open(database: Database): Promise<StepsRepository> {
    const ledger = await StepLedger.open(database);
    const photos = new StepPhotos(database.db);
    return new StepsRepository(ledger, new ManualEntries(database, ledger, photos), photos);
  }

  async recordCount(reading: CounterReading, now = Date.now()): Promise<WalkerTotals> {
    await this.beforeWrite([reading.day], now);
    return this.ledger.recordCount(reading, now);
  }

  dayTotal(userId: string, day: DayString): Promise<number> {
    return this.ledger.dayTotal(userId, day);
  }

  monthTotal(userId: string, month: MonthString): Promise<number> {
    return this.ledger.monthTotal(userId, month);
  }

  dayTotals(userId: string, from: DayString, to: DayString): Promise<Map<DayString, number>> {
    return this.ledger.dayTotals(userId, from, to);
  }

  async addManualEntry(input: NewManualEntry, now = Date.now()): Promise<ManualEntryOutcome> {
    await this.beforeWrite([input.day], now);
    return this.manualEntries.add(input, now);
  }

  /** Why a new manual entry would be refused before its photo is processed, or undefined. */
  manualEntryRefusal(input: ManualEntryRequest, now?: number): Promise<ManualEntryRefusal | undefined> {
    return this.manualEntries.refusal(input, 0, now);
  }

  findManualReplay(input: ManualEntryRequest, now?: number): Promise<ManualEntryOutcome | undefined> {
    return this.manualEntries.findReplay(input, now);
  }

  deleteExpiredIdempotencyRecords(userId: string | null, now?: number): Promise<number> {
    return this.manualEntries.deleteExpiredIdempotencyRecords(userId, now);
  }

  findPhoto(userId: string, photoId: string): Promise<StoredPhoto | undefined> {
    return this.photos.find(userId, photoId);
  }
}
