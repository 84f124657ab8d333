import { HIGH_URGENCY_KINDS, type NotificationKind, type PushPayload } from "@charity-steps/shared-types";
import type { FastifyBaseLogger } from "fastify";
import type { PushConfig } from "../config.js";
import { OutboxWorker, type OutboxWorkerOptions } from "../outbox/outbox-worker.js";
import type { AppSecretsRepository } from "../repositories/app-secrets.js";
import type {
  NotificationsRepository,
  PushOutboxRow,
  PushSubscriptionRow,
} from "../repositories/notifications.js";
import { isAllowedPushEndpoint } from "./push-endpoints.js";

/** 30 s, 2 min, 10 min, 1 h: five attempts over about an hour and a quarter. */
export const PUSH_RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 3_600_000] as const;
/** A push service that has not answered by then is tried again later. */
const PUSH_TIMEOUT_MS = 10_000;
/** How long a push service keeps a push for a phone that is off: a day, or less for news of today. */
const DAY_S = 24 * 3_600;
const TTL_S: Partial<Record<NotificationKind, number>> = {
  goal_reached: 6 * 3_600,
  streak_at_risk: 5 * 3_600,
  new_sign_in: 3 * DAY_S,
  prize_won: 7 * DAY_S,
  prize_claim_reminder: 3 * DAY_S,
};

export const PUSH_QUEUE_DEFAULTS: OutboxWorkerOptions = {
  // A push leaves within seconds of its event: `notify` wakes the worker, and this catches the rest
  // (a push released from quiet hours, another process's push, a retry).
  intervalMs: 5_000,
  perTick: 50,
  leaseMs: 2 * 60_000,
  retryDelaysMs: PUSH_RETRY_DELAYS_MS,
  // Read at each call, not kept: whatever clock the process has then (a test's moved clock too).
  clock: () => Date.now(),
};

interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** What a push service answered, as far as the queue cares. */
type PushOutcome = "delivered" | "gone" | "retry" | "refused";

/**
 * Web Push (RFC 8030), encrypted to the browser's keys (RFC 8291, aes128gcm) and signed with the
 * server's VAPID key (RFC 8292) by the `web-push` library. The library builds each request; it is
 * sent here with fetch, so that an endpoint is checked against the allowed push services right before
 * it is posted to, and so that a test's `http:` receiver can be one of them (the library's own
 * sender speaks only HTTPS).
 *
 * Pushes are queued in `push_outbox` and claimed under a lease (see OutboxWorker), so each goes once
 * however many processes run. A 404 or 410 means the browser unsubscribed: the subscription is removed
 * at once. A 429, a 5xx or no answer is tried again after a wait; any other refusal is kept as failed.
 */
export class PushQueue extends OutboxWorker<PushOutboxRow> {
  private keys: Promise<VapidKeys> | undefined;

  constructor(
    private readonly deps: {
      notifications: NotificationsRepository;
      secrets: AppSecretsRepository;
      config: PushConfig;
    },
    log: FastifyBaseLogger,
    options: Partial<OutboxWorkerOptions> = {},
  ) {
    super(log, "push worker", { ...PUSH_QUEUE_DEFAULTS, ...options });
  }

  /** The server's VAPID public key (base64url), which browsers subscribe with. */
  async publicKey(): Promise<string> {
    return (await this.vapidKeys()).publicKey;
  }

  protected claimNext(leaseMs: number, now: number): Promise<PushOutboxRow | undefined> {
    return this.deps.notifications.claimNextPush(leaseMs, now);
  }

  protected async deliver(claim: PushOutboxRow): Promise<void> {
    const { notifications } = this.deps;
    const [subscription, notification] = await Promise.all([
      notifications.subscription(claim.subscription_id),
      notifications.find(claim.notification_id),
    ]);
    // Unsubscribed or erased meanwhile: the row goes by cascade, or is given up on here.
    if (!subscription || !notification) {
      await notifications.markPushFailed(claim, "the subscription or the notification is gone", null);
      return;
    }
    const payload: PushPayload = {
      kind: notification.kind,
      title: notification.title,
      body: notification.body,
      url: notification.url,
    };
    let outcome: PushOutcome;
    let detail: string;
    try {
      ({ outcome, detail } = await this.post(subscription, payload));
    } catch (error) {
      outcome = "retry";
      detail = error instanceof Error ? error.message : String(error);
    }
    const now = this.options.clock();
    const log = { pushId: claim.id, subscriptionId: subscription.id, attempts: claim.attempts, detail };
    switch (outcome) {
      case "delivered":
        await notifications.markPushSent(claim, now);
        await notifications.markSubscriptionSucceeded(subscription.id, now);
        this.log.info(log, "push sent");
        return;
      case "gone":
        // Its pushes go with it, this one included (by cascade).
        await notifications.removeSubscription(subscription.id);
        this.log.info(log, "push service says the browser unsubscribed: subscription removed");
        return;
      case "refused":
        await notifications.markPushFailed(claim, detail, null);
        this.log.warn(log, "push refused by the push service: kept as failed");
        return;
      case "retry": {
        const retryAt = this.retryAt(claim.attempts);
        await notifications.markPushFailed(claim, detail, retryAt);
        if (retryAt === null) this.log.warn(log, "push not delivered after its last attempt: kept as failed");
        else
          this.log.info(
            { ...log, retryAt: new Date(retryAt).toISOString() },
            "push not delivered: will retry",
          );
        return;
      }
    }
  }

  private async post(
    subscription: PushSubscriptionRow,
    payload: PushPayload,
  ): Promise<{ outcome: PushOutcome; detail: string }> {
    const { config } = this.deps;
    if (!isAllowedPushEndpoint(subscription.endpoint, config.endpointOrigins)) {
      return { outcome: "refused", detail: "the endpoint is not one of PUSH_ENDPOINT_ORIGINS" };
    }
    const [keys, webpush] = await Promise.all([this.vapidKeys(), webPush()]);
    const request = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: {
          subject: config.vapidSubject,
          publicKey: keys.publicKey,
          privateKey: keys.privateKey,
        },
        TTL: TTL_S[payload.kind] ?? DAY_S,
        urgency: HIGH_URGENCY_KINDS.includes(payload.kind) ? "high" : "normal",
        contentEncoding: "aes128gcm",
      },
    );
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body === null ? undefined : new Uint8Array(request.body),
      // A push service answers; it does not send the server elsewhere.
      redirect: "manual",
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    // The answer's body is not needed, and is never read whole.
    await response.body?.cancel();
    const detail = `HTTP ${response.status}`;
    if (response.status >= 200 && response.status < 300) return { outcome: "delivered", detail };
    if (response.status === 404 || response.status === 410) return { outcome: "gone", detail };
    if (response.status === 429 || response.status >= 500) return { outcome: "retry", detail };
    return { outcome: "refused", detail };
  }

  private vapidKeys(): Promise<VapidKeys> {
    const configured = this.deps.config.vapidKeys;
    this.keys ??= configured
      ? Promise.resolve(configured)
      : webPush()
          .then((webpush) =>
            this.deps.secrets.getOrCreate("vapid-keys", () => JSON.stringify(webpush.generateVAPIDKeys())),
          )
          .then((stored) => JSON.parse(stored) as VapidKeys);
    // A failed read is tried again next time rather than kept.
    this.keys.catch(() => {
      this.keys = undefined;
    });
    return this.keys;
  }
}

/**
 * The `web-push` library, loaded when first needed: with its dependencies it adds about 10 MB to
 * the process, which a server that sends no push need not carry.
 */
let loadedWebPush: Promise<typeof import("web-push")> | undefined;
function webPush(): Promise<typeof import("web-push")> {
  loadedWebPush ??= import("web-push").then((module) => module.default);
  return loadedWebPush;
}
