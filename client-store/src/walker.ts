/**
 * The device's steps belong to the walker who counted them. When another walker signs in on the
 * same browser, the previous walker's unsent syncs must not go out under the new session, and the
 * new walker's day must not start from the previous walker's count, nor see their cached screens.
 */
import { clearApiCache } from "./api-cache";
import { type DeadLetter, db, getMeta, setMeta } from "./db";

export const OTHER_WALKER_MESSAGE =
  "Counted for another walker who used this device; not sent under this sign-in.";

/**
 * Makes the device's step store `userId`'s: when it held another walker's steps, their queued
 * syncs move to the dead letters (kept, never sent as this walker) and their days are cleared.
 * Returns true when it switched.
 */
export async function claimDeviceFor(userId: string, now = Date.now()): Promise<boolean> {
  const switched = await db.transaction(
    "rw",
    [db.meta, db.outbox, db.deadLetters, db.days, db.months],
    async () => {
      const previous = await getMeta("cachedUserId");
      await setMeta("cachedUserId", userId);
      if (!previous || previous === userId) return false;
      const queued = await db.outbox.toArray();
      await db.deadLetters.bulkAdd(
        queued.map(
          (action): DeadLetter => ({
            key: action.key,
            type: action.type,
            deviceId: action.deviceId,
            body: action.body,
            status: 0,
            message: OTHER_WALKER_MESSAGE,
            createdAt: action.createdAt,
            failedAt: now,
          }),
        ),
      );
      await db.outbox.clear();
      await db.days.clear();
      await db.months.clear();
      return true;
    },
  );
  // The last walker's screens, kept by the service worker for offline, are not this walker's.
  if (switched) await clearApiCache();
  return switched;
}
