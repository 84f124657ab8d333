import { once } from "node:events";
import { PassThrough, type Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import {
  ACCOUNT_EXPORT_PATH,
  ACCOUNT_MESSAGES,
  ACCOUNT_PATH,
  DELETE_CONFIRM_WORD,
  DeleteAccountRequest,
  ErrorResponse,
  londonDay,
  NoContent,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { Type } from "typebox";
import { builtInIssuerOf } from "../../../auth/provider/provider.js";
import { describeBrowser, signedInUser } from "../../../auth/sessions.js";
import { AppError, BadRequestError, BusyError } from "../../../errors.js";
import { notificationItem } from "../../../notifications/notifier.js";
import { endpointOrigin } from "../../../notifications/push-endpoints.js";
import type { ExportDay } from "../../../repositories/account-data.js";

/** Exports prepared at once by one process: each holds a database connection and a response open. */
export const MAX_CONCURRENT_EXPORTS = 2;
const BUSY_RETRY_AFTER_SECONDS = 30;

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

const PHOTO_EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
};

/** A CSV field: quoted when needed, and never read as a formula by a spreadsheet. */
function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
const csvRow = (fields: (string | number)[]) => `${fields.map(csvField).join(",")}\r\n`;

/** The device id a motion counter was kept under, or "" for a health source's counter. */
const deviceIdOf = (counterId: string) => (counterId.startsWith("device:") ? counterId.slice(7) : "");

function dayJson(day: ExportDay) {
  return {
    date: day.day,
    totalSteps: day.totalSteps,
    motionSteps: day.motionSteps,
    healthSteps: day.healthSteps,
    manualSteps: day.manualSteps,
    updatedAt: iso(day.updatedAt),
    counters: day.counters.map((counter) => ({
      kind: counter.kind,
      deviceId: deviceIdOf(counter.counterId) || null,
      counter: counter.counterId,
      source: counter.source,
      steps: counter.steps,
      updatedAt: iso(counter.updatedAt),
    })),
  };
}

/** Why a download was cut: the client stopped taking it. */
export class StalledDownloadError extends Error {
  constructor(stalledMs: number) {
    super(`The client took nothing of the download for ${stalledMs} ms`);
  }
}

/**
 * A ZIP written to a stream file by file, as the files are read: each file's bytes leave as soon
 * as they are compressed, and reading waits whenever the client is slower than the database, but
 * no longer than `stalledMs` at a time: then the download is cut, and its slot freed.
 */
class ZipStream {
  readonly output = new PassThrough();
  private readonly zip: Zip;
  private failed: Error | null = null;

  constructor(private readonly stalledMs: number) {
    this.zip = new Zip((error, chunk, final) => {
      if (error) {
        this.failed = error;
        this.output.destroy(error);
        return;
      }
      this.output.write(chunk);
      if (final) this.output.end();
    });
  }

  /**
   * Waits while the client has not taken what was already written; throws once it has gone, and
   * cuts the download when it has taken nothing for too long.
   */
  private async drain(): Promise<void> {
    if (this.failed) throw this.failed;
    if (this.output.destroyed) throw new Error("The download was closed before it was finished");
    if (this.output.writableNeedDrain) {
      // The listeners that lose the race are taken off again: a long export waits thousands of times.
      const done = new AbortController();
      const outcome = await Promise.race([
        once(this.output, "drain", { signal: done.signal }),
        once(this.output, "close", { signal: done.signal }),
        sleep(this.stalledMs, "stalled" as const, { signal: done.signal }),
      ]).finally(() => done.abort());
      if (outcome === "stalled") {
        const error = new StalledDownloadError(this.stalledMs);
        this.output.destroy(error);
        throw error;
      }
      if (this.output.destroyed) throw new Error("The download was closed before it was finished");
    }
  }

  /** Adds a file whose content `write` produces piece by piece; deflated unless `stored`. */
  async file(
    name: string,
    produce: (write: (piece: string | Uint8Array) => Promise<void>) => Promise<void>,
    { stored = false } = {},
  ): Promise<void> {
    const entry = stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    this.zip.add(entry);
    await produce(async (piece) => {
      entry.push(typeof piece === "string" ? strToU8(piece) : piece, false);
      await this.drain();
    });
    entry.push(new Uint8Array(0), true);
    await this.drain();
  }

  /** A JSON array file, written an element at a time from pages of items. */
  async jsonArray<T>(name: string, pages: AsyncIterable<T[]>, toJson: (item: T) => unknown): Promise<void> {
    await this.file(name, async (write) => {
      let first = true;
      await write("[");
      for await (const page of pages) {
        if (page.length === 0) continue;
        const text = page.map((item) => JSON.stringify(toJson(item), null, 2)).join(",\n");
        await write(`${first ? "\n" : ",\n"}${text}`);
        first = false;
      }
      await write("\n]\n");
    });
  }

  end(): void {
    this.zip.end();
  }
}

async function* onePage<T>(items: T[]): AsyncGenerator<T[]> {
  yield items;
}

/** Download my data (a streamed ZIP) and Delete my account. */
export const accountDataRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireUser);
  const { accountData } = app.repositories;

  /** What the bell told the walker, what they chose, and where pushes went (the push service only). */
  const notificationsExport = async (userId: string) => {
    const { notifications } = app.repositories;
    const [items, preferences, subscriptions] = await Promise.all([
      notifications.everyOne(userId),
      app.services.notifier.preferences(userId),
      notifications.subscriptions(userId),
    ]);
    return {
      preferences,
      notifications: items.map(notificationItem),
      pushSubscriptions: subscriptions.map((subscription) => ({
        endpointOrigin: endpointOrigin(subscription.endpoint),
        createdAt: iso(subscription.created_at),
        lastSuccessAt: isoOrNull(subscription.last_success_at),
      })),
    };
  };
  /** The challenges the walker is in: when they joined, completed, and their fundraising page. */
  const challengesExport = async (userId: string) =>
    (await app.repositories.challenges.membershipsOf(userId)).map(({ challenge, member }) => ({
      id: challenge.id,
      name: challenge.name,
      kind: challenge.kind,
      target: challenge.target,
      dailyTarget: challenge.daily_target,
      startsOn: challenge.starts_on,
      endsOn: challenge.ends_on,
      charity: challenge.charity_name,
      joinedAt: member ? iso(member.joined_at) : null,
      completedAt: member ? isoOrNull(member.completed_at) : null,
      fundraisingUrl: member?.fundraising_url ?? null,
    }));
  const builtInIssuer = builtInIssuerOf(app.config);

  /** Walkers whose export is being prepared by this process. */
  const exporting = new Set<string>();

  app.get(
    ACCOUNT_EXPORT_PATH,
    {
      schema: {
        response: {
          200: Type.Unsafe<Readable>({ type: "string", format: "binary", description: "A ZIP file" }),
          401: ErrorResponse,
          429: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      if (exporting.has(user.id)) throw new AppError(429, ACCOUNT_MESSAGES.exportRunning);
      if (exporting.size >= MAX_CONCURRENT_EXPORTS) {
        reply.header("retry-after", String(BUSY_RETRY_AFTER_SECONDS));
        throw new BusyError(ACCOUNT_MESSAGES.exportBusy);
      }
      exporting.add(user.id);
      const zip = new ZipStream(app.connectionLimits.stalledDownloadMs);
      zip.output.once("close", () => exporting.delete(user.id));
      const currentHash = request.sessionIdHash;

      const write = async () => {
        const profile = await accountData.profile(user.id);
        await zip.file("profile.json", async (put) =>
          put(
            `${JSON.stringify(
              {
                firstName: profile?.firstName ?? null,
                lastName: profile?.lastName ?? null,
                email: profile?.email ?? null,
                createdAt: profile ? iso(profile.createdAt) : null,
                charity: profile?.charityName ?? null,
                emailConfirmed: (profile?.emailVerifiedAt ?? null) !== null,
                emailConfirmedAt: isoOrNull(profile?.emailVerifiedAt ?? null),
                theme: profile?.theme ?? null,
                welcomedAt: isoOrNull(profile?.onboardedAt ?? null),
                weeklyEmail: profile?.weeklyEmail ?? null,
                dailyGoals: (profile?.dailyGoals ?? []).map((goal) => ({
                  from: goal.from,
                  steps: goal.goal,
                  setAt: iso(goal.setAt),
                })),
                badges: (profile?.badges ?? []).map((badge) => ({
                  id: badge.id,
                  earnedAt: iso(badge.earnedAt),
                })),
              },
              null,
              2,
            )}\n`,
          ),
        );
        await zip.file("notifications.json", async (put) =>
          put(`${JSON.stringify(await notificationsExport(user.id), null, 2)}\n`),
        );
        await zip.file("challenges.json", async (put) =>
          put(`${JSON.stringify(await challengesExport(user.id), null, 2)}\n`),
        );
        await zip.jsonArray("days.json", accountData.days(user.id), dayJson);
        await zip.file("days.csv", async (put) => {
          await put(
            csvRow([
              "date",
              "total_steps",
              "motion_steps",
              "health_steps",
              "manual_steps",
              "counter_kind",
              "device_id",
              "source",
              "counter_steps",
            ]),
          );
          for await (const page of accountData.days(user.id)) {
            let text = "";
            for (const day of page) {
              const parts = [day.day, day.totalSteps, day.motionSteps, day.healthSteps, day.manualSteps];
              if (day.counters.length === 0) text += csvRow([...parts, "", "", "", ""]);
              for (const counter of day.counters) {
                text += csvRow([
                  ...parts,
                  counter.kind,
                  deviceIdOf(counter.counterId),
                  counter.source,
                  counter.steps,
                ]);
              }
            }
            await put(text);
          }
        });
        await zip.jsonArray("months.json", accountData.months(user.id), (month) => ({
          month: month.month,
          totalSteps: month.totalSteps,
          updatedAt: iso(month.updatedAt),
        }));
        const photoPath = (id: string, contentType: string) =>
          `photos/${id}.${PHOTO_EXTENSIONS[contentType] ?? "bin"}`;
        await zip.jsonArray("manual-entries.json", accountData.manualEntries(user.id), (entry) => ({
          date: entry.day,
          steps: entry.steps,
          note: entry.note,
          createdAt: iso(entry.createdAt),
          photo: photoPath(entry.photoId, entry.photoContentType),
          photoContentType: entry.photoContentType,
          photoWidth: entry.photoWidth,
          photoHeight: entry.photoHeight,
          status: entry.status,
          reasons: entry.reasons,
          decisionReason: entry.decisionReason,
          decidedAt: isoOrNull(entry.decidedAt),
        }));
        // Photos are JPEG, PNG or WebP: compressed already, so stored as they are.
        for await (const page of accountData.manualEntries(user.id)) {
          for (const entry of page) {
            const data = await accountData.photo(user.id, entry.photoId);
            if (!data) continue;
            await zip.file(photoPath(entry.photoId, entry.photoContentType), (put) => put(data), {
              stored: true,
            });
          }
        }
        const groups = await accountData.groups(user.id);
        await zip.jsonArray("groups.json", onePage(groups), (group) => ({
          name: group.name,
          description: group.description,
          joinCode: group.joinCode,
          createdAt: iso(group.createdAt),
          joinedAt: iso(group.joinedAt),
          role: group.isAdmin ? "admin" : "member",
          members: group.members.map((member) => ({
            firstName: member.firstName,
            lastName: member.lastName,
            joinedAt: iso(member.joinedAt),
            you: member.isYou,
          })),
        }));
        const sessions = await accountData.sessions(user.id);
        await zip.jsonArray("sessions.json", onePage(sessions), (session) => ({
          browser: describeBrowser(session.userAgent),
          userAgent: session.userAgent,
          createdAt: iso(session.createdAt),
          lastSeenAt: iso(session.lastSeenAt),
          expiresAt: iso(session.expiresAt),
          thisDevice: session.idHash === currentHash,
        }));
        const keys = await accountData.healthKeys(user.id);
        await zip.jsonArray("health-keys.json", onePage(keys), (key) => ({
          name: key.name,
          createdAt: iso(key.createdAt),
          lastUsedAt: isoOrNull(key.lastUsedAt),
        }));
        // Their tickets per drawn or closed month, and every prize with what they gave to claim it.
        const draws = await app.services.draws.exportOf(user.id);
        await zip.jsonArray("prize-draws.json", onePage(draws), (draw) => draw);
        zip.end();
      };
      write().catch((error: unknown) => {
        if (error instanceof StalledDownloadError) {
          request.log.warn({ userId: user.id }, "data export cut: the client stopped taking it");
        } else if (!zip.output.destroyed) {
          request.log.error({ err: error }, "data export failed");
          zip.output.destroy(error instanceof Error ? error : new Error(String(error)));
        }
      });

      return reply
        .header("content-type", "application/zip")
        .header("content-disposition", `attachment; filename="charity-steps-data-${londonDay()}.zip"`)
        .header("cache-control", "no-store")
        .send(zip.output);
    },
  );

  app.delete(
    ACCOUNT_PATH,
    {
      schema: {
        body: DeleteAccountRequest,
        response: { 204: NoContent, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const typed = request.body.confirmEmail.trim();
      if (user.email) {
        if (typed.toLowerCase() !== user.email.toLowerCase()) {
          throw new BadRequestError(ACCOUNT_MESSAGES.confirmEmail);
        }
      } else if (typed !== DELETE_CONFIRM_WORD) {
        throw new BadRequestError(ACCOUNT_MESSAGES.confirmWord);
      }
      await accountData.erase(user.id, builtInIssuer);
      await app.sessionCookie.signOut(request, reply);
      return reply.status(204).send(null);
    },
  );
};
