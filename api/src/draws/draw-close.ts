import { type DayString, drawClosesAt, monthOfDay } from "@charity-steps/shared-types";
import type { FastifyBaseLogger } from "fastify";
import type { BeforeStepsStored } from "../ledger/ledger.js";
import type { DrawsRepository } from "../repositories/draws.js";

/**
 * A month's close, when its prize draw's tickets are counted from the steps stored until then. It
 * happens at the first of: a step stored for a day of that month after the close (the ledger awaits
 * `beforeStepsStored`, so the write waits and a late sync buys no ticket), the scheduled job, an
 * operator opening the month, or the draw's run. The database makes it happen once.
 */
export class DrawClose implements BeforeStepsStored {
  /** Months this process knows are closed: a sync for one of them need not ask the database. */
  private readonly knownClosed = new Set<string>();
  private readonly closesAt = new Map<string, number>();

  constructor(
    private readonly draws: DrawsRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** When `month`'s step entries are counted, in epoch milliseconds (remembered: it never changes). */
  closeTime(month: string): number {
    let at = this.closesAt.get(month);
    if (at === undefined) {
      at = drawClosesAt(month).getTime();
      this.closesAt.set(month, at);
    }
    return at;
  }

  /** A day of a month past its close first closes that month. */
  async beforeStepsStored(days: readonly DayString[], now: number): Promise<void> {
    for (const month of new Set(days.map(monthOfDay))) {
      if (this.knownClosed.has(month) || now < this.closeTime(month)) continue;
      await this.close(month, now);
    }
  }

  /** Closes the month if it is past its close and still open; true once it is closed. */
  async close(month: string, now = Date.now()): Promise<boolean> {
    if (this.knownClosed.has(month)) return true;
    if (now < this.closeTime(month)) return false;
    const counted = await this.draws.close(month, now);
    if (counted) this.log.info({ month, ...counted }, "draw closed: tickets counted");
    this.knownClosed.add(month);
    return true;
  }
}
