import type { FastifyBaseLogger } from "fastify";
import { OutboxWorker, type OutboxWorkerOptions } from "../outbox/outbox-worker.js";
import type { MailOutboxRepository, MailOutboxRow } from "../repositories/mail-outbox.js";
import { checkMessage, type Mailer, type MailMessage } from "./mail.js";
import { isPermanentFailure, type MailTransport } from "./transport.js";

export type MailQueueOptions = OutboxWorkerOptions;

/** 1 min, 5 min, 30 min, 2 h, 6 h: six attempts over about nine hours. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const;

export const MAIL_QUEUE_DEFAULTS: MailQueueOptions = {
  intervalMs: 5_000,
  perTick: 20,
  leaseMs: 5 * 60_000,
  retryDelaysMs: RETRY_DELAYS_MS,
  // Read through \`Date\` each time, not captured once: a test that moves the clock moves the queue's.
  clock: () => Date.now(),
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
export class MailQueue extends OutboxWorker<MailOutboxRow> implements Mailer {
  constructor(
    private readonly outbox: MailOutboxRepository,
    private readonly transport: MailTransport,
    log: FastifyBaseLogger,
    options: Partial<MailQueueOptions> = {},
  ) {
    super(log, "mail worker", { ...MAIL_QUEUE_DEFAULTS, ...options });
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

  /** Stops the worker once the message in hand is dealt with; queued messages wait in the table. */
  override async stop(): Promise<void> {
    await super.stop();
    this.transport.close();
  }

  protected claimNext(leaseMs: number, now: number): Promise<MailOutboxRow | undefined> {
    return this.outbox.claimNext(leaseMs, now);
  }

  protected async deliver(claim: MailOutboxRow): Promise<void> {
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
    const permanent = isPermanentFailure(error);
    const retryAt = permanent ? null : this.retryAt(claim.attempts);
    if (retryAt === null) {
      await this.outbox.markAttemptFailed(claim, reason, null);
      this.log.error(
        { mailId: claim.id, attempts: claim.attempts, err: error },
        permanent
          ? "mail refused by the server: kept as failed"
          : "mail not delivered after its last attempt: kept as failed",
      );
      return;
    }
    await this.outbox.markAttemptFailed(claim, reason, retryAt);
    this.log.warn(
      { mailId: claim.id, attempts: claim.attempts, retryAt: new Date(retryAt).toISOString(), err: error },
      "mail not delivered: will retry",
    );
  }
}
