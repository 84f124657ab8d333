import { createHmac, timingSafeEqual } from "node:crypto";
import { EMAIL_UNSUBSCRIBE_PATH, type NotificationKind } from "@charity-steps/shared-types";
import { deriveSecret, loadMasterSecret } from "../auth/secrets.js";
import type { AppConfig } from "../config.js";
import type { AppSecretsRepository } from "../repositories/app-secrets.js";

/**
 * The one-click address in each notification mail that stops that kind of mail for its walker
 * (RFC 8058), without signing in. The link is signed for the walker and the kind, so a link cannot
 * be changed to stop another walker's mail or another kind.
 */
export class UnsubscribeLinks {
  private secret: Promise<string> | undefined;

  constructor(private readonly deps: { secrets: AppSecretsRepository; config: AppConfig }) {}

  async url(userId: string, kind: NotificationKind): Promise<string> {
    const query = new URLSearchParams({ u: userId, kind, t: await this.sign(userId, kind) });
    return `${this.deps.config.publicUrl}${EMAIL_UNSUBSCRIBE_PATH}?${query}`;
  }

  /** Whether `token` is the signature of the walker's link for `kind`. */
  async verify(userId: string, kind: NotificationKind, token: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(userId, kind));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async sign(userId: string, kind: NotificationKind): Promise<string> {
    this.secret ??= loadMasterSecret(this.deps.config, this.deps.secrets).then((master) =>
      deriveSecret(master, "email-unsubscribe"),
    );
    return createHmac("sha256", await this.secret)
      .update(`${kind}:${userId}`)
      .digest("base64url");
  }
}
