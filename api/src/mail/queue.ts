import type { FastifyBaseLogger } from "fastify";
import type { MailOutboxRepository, MailOutboxRow } from "../repositories/mail-outbox.js";
import { checkMessage, type Mailer, type MailMessage } from "./mail.js";
import { isPermanentFailure, type MailTransport } from "./transport.js";

export interface MailQueueOptions {
  /** How often the worker looks for due messages (a `send` wakes it at once as well). */
  intervalMs: number;
  /** The most messages one look sends, so one process does not hold the database for long. */
  perTick: number;
  /** How long a claimed message is held: longer than any one send may take. */
  leaseMs: number;
  /** The waits after the 1st, 2nd, … failed attempt; past the last, the message is kept as failed. */
  retryDelaysMs: readonly number[];
  clock: () => number;
}

/** 1 min, 5 min, 30 min, 2 h, 6 h: six attempts over about nine hours. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const;

export const MAIL_QUEUE_DEFAULTS: MailQueueOptions = {
  intervalMs: 5_000,
  perTick: 20,
  leaseMs: 5 * 60_000,
  retryDelaysMs: RETRY_DELAYS_MS,
  clock: Date.now,
};

/**
 * Mail queued in the database and sent by a worker in every API process.
 *
 * Why a table of our own rather than a job library: the well-kept ones (pg-boss, graphile-worker)
 * run on PostgreSQL only, and the API runs on SQLite by default; the queue needs no more than a
 * claim, a retry time and a state per row, which one table holds on both.
 *
 * Delivery is at least once, and in practice exactly once: a message is claimed under a lease by
 * one UPDATE that only one worker can win, so several processes never send the same message side
 * by side. Only a process that dies (or loses its database) between the server accepting a message
 * and the row being marked sent leaves it to be sent again once the lease runs out.
 */
export class MailQueue implements Mailer {
  private readonly options: MailQueueOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private started = false;
  /** Set by stop(): the message in hand is finished, no further one is claimed. */
  private closing = false;

  constructor(
    private readonly outbox: MailOutboxRepository,
    private readonly transport: MailTransport,
    private readonly log: FastifyBaseLogger,
    options: Partial<MailQueueOptions> = {},
  ) {
    this.options = { ...MAIL_QUEUE_DEFAULTS, ...options };
  }

  async send(message: MailMessage): Promise<void> {
    checkMessage(message);
    const id = await this.outbox.enqueue(
      {
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        userId: message.userId ?? null,
        unsubscribeUrl: message.unsubscribeUrl ?? null,
      },
      this.options.clock(),
    );
    if (this.transport.kind === "file") {
      // Development: the developer follows the link from the log rather than from a mailbox.
      this.log.info(
        { mailId: id, to: message.to, subject: message.subject, link: message.link },
        "mail queued",
      );
    } else {
      this.log.debug({ mailId: id }, "mail queued");
    }
    this.wake();
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.outbox.deleteForUser(userId);
  }

  /** Starts the worker: a look every interval, and one at once. */
  start(): void {
    if (this.started || this.closing) return;
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.options.intervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops the worker once the message in hand is dealt with; queued messages wait in the table. */
  async stop(): Promise<void> {
    this.closing = true;
    this.started = false;
    clearInterval(this.timer);
    await this.running;
    this.transport.close();
  }

  /** Looks for due messages now, or right after the look in progress. */
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

  /** Sends due messages, at most `perTick`; resolves to how many were dealt with. */
  async runOnce(): Promise<number> {
    let handled = 0;
    while (handled < this.options.perTick && !this.closing) {
      const claim = await this.outbox.claimNext(this.options.leaseMs, this.options.clock());
      if (!claim) break;
      await this.deliver(claim);
      handled++;
    }
    return handled;
  }

  private async drain(): Promise<void> {
    try {
      const handled = await this.runOnce();
      // A full batch suggests more are due: look again instead of waiting for the interval.
      if (handled === this.options.perTick) this.again = true;
    } catch (error) {
      this.log.warn(
        { err: error },
        "mail worker: the queue could not be read or updated; the next look tries again",
      );
    }
  }

  private async deliver(claim: MailOutboxRow): Promise<void> {
    try {
      await this.transport.deliver(claim);
    } catch (error) {
      await this.failed(claim, error);
      return;
    }
    const marked = await this.outbox.markSent(claim, this.options.clock());
    if (marked) {
      this.log.info({ mailId: claim.id, attempts: claim.attempts }, "mail sent");
    } else {
      this.log.warn({ mailId: claim.id }, "mail sent after its lease ran out: it may be sent twice");
    }
  }

  private async failed(claim: MailOutboxRow, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    const delay = this.options.retryDelaysMs[claim.attempts - 1];
    const permanent = isPermanentFailure(error);
    if (permanent || delay === undefined) {
      await this.outbox.markAttemptFailed(claim, reason, null);
      this.log.error(
        { mailId: claim.id, attempts: claim.attempts, err: error },
        permanent
          ? "mail refused by the server: kept as failed"
          : "mail not delivered after its last attempt: kept as failed",
      );
      return;
    }
    const retryAt = this.options.clock() + delay;
    await this.outbox.markAttemptFailed(claim, reason, retryAt);
    this.log.warn(
      { mailId: claim.id, attempts: claim.attempts, retryAt: new Date(retryAt).toISOString(), err: error },
      "mail not delivered: will retry",
    );
  }
}
