import type { FastifyBaseLogger } from "fastify";
import { vi } from "vitest";
import type { NotificationsRepository } from "../../src/repositories/notifications.js";

/**
 * Watches the notices stored together (`recordAll`) until `restore`: `offered` lists the walkers of
 * every call, in order. With `refusing`, each call holding that walker's notice fails, as a disk
 * refusing its row would, so that nothing of that transaction is stored.
 */
export function watchNoticesRecorded(
  notifications: NotificationsRepository,
  { refusing }: { refusing?: string } = {},
): { offered: string[]; restore: () => void } {
  const own = Object.hasOwn(notifications, "recordAll");
  const original = notifications.recordAll;
  const offered: string[] = [];
  notifications.recordAll = (items, now) => {
    const userIds = items.map(({ notification }) => notification.userId);
    offered.push(...userIds);
    return refusing !== undefined && userIds.includes(refusing)
      ? Promise.reject(new Error("the disk refused the row"))
      : original.call(notifications, items, now);
  };
  return {
    offered,
    restore: () => {
      if (own) notifications.recordAll = original;
      else delete (notifications as Partial<NotificationsRepository>).recordAll;
    },
  };
}

/** What `log` warned of while `work` ran: each warning's fields and message. */
export async function warningsWhile(
  log: FastifyBaseLogger,
  work: () => Promise<unknown>,
): Promise<{ fields: Record<string, unknown>; message: unknown }[]> {
  const warn = vi.spyOn(log, "warn");
  try {
    await work();
    return warn.mock.calls.map(([fields, message]) => ({
      fields: fields as Record<string, unknown>,
      message,
    }));
  } finally {
    warn.mockRestore();
  }
}
