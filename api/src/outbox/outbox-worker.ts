import type { FastifyBaseLogger } from "fastify";

export interface OutboxWorkerOptions {
  /** How often the worker looks for due items (a `wake` looks at once as well). */
  intervalMs: number;
  /** The most items one look deals with, so one process does not hold the database for long. */
  perTick: number;
  /** How long a claimed item is held: longer than any one delivery may take. */
  leaseMs: number;
  /** The waits after the 1st, 2nd, … failed attempt; past the last, the item is kept as failed. */
  retryDelaysMs: readonly number[];
  clock: () => number;
}

/**
 * The worker loop of a queue kept in a database table (the mail queue, the push queue): each API
 * process runs one. A look claims due items one at a time under a lease, by a statement only one
 * worker can win, and delivers each; several processes therefore never deliver the same item side
 * by side. Subclasses say how to claim and how to deliver.
 */
export abstract class OutboxWorker<Claim> {
  protected readonly options: OutboxWorkerOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private started = false;
  /** Set by stop(): the item in hand is finished, no further one is claimed. */
  private closing = false;

  constructor(
    protected readonly log: FastifyBaseLogger,
    /** Names the queue in the log: "mail worker", "push worker". */
    private readonly name: string,
    options: OutboxWorkerOptions,
  ) {
    this.options = options;
  }

  /** Claims the oldest due item nobody holds, or undefined when none is due. */
  protected abstract claimNext(leaseMs: number, now: number): Promise<Claim | undefined>;
  /** Delivers a claimed item and records the outcome (sent, to retry, or failed). */
  protected abstract deliver(claim: Claim): Promise<void>;

  /** Starts the worker: a look every interval, and one at once. */
  start(): void {
    if (this.started || this.closing) return;
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.options.intervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops the worker once the item in hand is dealt with; queued items wait in the table. */
  async stop(): Promise<void> {
    this.closing = true;
    this.started = false;
    clearInterval(this.timer);
    await this.running;
  }

  /** Looks for due items now, or right after the look in progress. */
  wake(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Resolves once no look is in progress, including one asked for while the last ran. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Delivers due items, at most `perTick`; resolves to how many were dealt with. */
  async runOnce(): Promise<number> {
    let handled = 0;
    while (handled < this.options.perTick && !this.closing) {
      const claim = await this.claimNext(this.options.leaseMs, this.options.clock());
      if (!claim) break;
      await this.deliver(claim);
      handled++;
    }
    return handled;
  }

  /** When the item's `attempts`-th attempt failed: when to try again, or null to give up. */
  protected retryAt(attempts: number): number | null {
    const delay = this.options.retryDelaysMs[attempts - 1];
    return delay === undefined ? null : this.options.clock() + delay;
  }

  private async drain(): Promise<void> {
    try {
      const handled = await this.runOnce();
      // A full batch suggests more are due: look again instead of waiting for the interval.
      if (handled === this.options.perTick) this.again = true;
    } catch (error) {
      this.log.warn(
        { err: error },
        `${this.name}: the queue could not be read or updated; the next look tries again`,
      );
    }
  }
}
