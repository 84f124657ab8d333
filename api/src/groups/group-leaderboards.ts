import { type GroupLeaderboardEntry, londonDay, monthOfDay } from "@charity-steps/shared-types";
import { READINGS_SHARED_MS, SharedReadings } from "../db/shared-readings.js";
import type { EligibleSteps } from "../ledger/eligible-steps.js";
import type { GroupsRepository } from "../repositories/groups.js";

/**
 * Groups' monthly leaderboards. Every member's steps are read at each call (one row per member, from
 * the ledger's month rows). Marking the steps that wait for a check takes a pass over every
 * member's days in the month, so a group's marks are shared by its readers for a few seconds
 * (`SharedReadings`); the reader's own are read each time, so their row is always current.
 */
export class GroupLeaderboards {
  private readonly marks: SharedReadings<Map<string, number>>;

  constructor(
    private readonly deps: {
      groups: Pick<GroupsRepository, "leaderboard">;
      eligibleSteps: Pick<EligibleSteps, "pendingByWalker">;
    },
    /** How long a group's marks are shared; 0 reads them for every reader (the bench's reference). */
    freshMs = READINGS_SHARED_MS,
  ) {
    this.marks = new SharedReadings(freshMs);
  }

  /** The group's members ranked by this London month's steps, as `userId` sees them. */
  async leaderboard(groupId: number, userId: string, now = Date.now()): Promise<GroupLeaderboardEntry[]> {
    const today = londonDay(now);
    const month = monthOfDay(today);
    const range = { from: `${month}-01`, to: `${month}-31` };
    const [entries, shared, own] = await Promise.all([
      this.deps.groups.leaderboard(groupId, today),
      this.marks.get(String(groupId), month, now, () =>
        this.deps.eligibleSteps.pendingByWalker({ ...range, groupId }),
      ),
      this.deps.eligibleSteps.pendingByWalker({ ...range, userId }),
    ]);
    for (const entry of entries) {
      const pendingSteps = (entry.user.id === userId ? own : shared).get(entry.user.id) ?? 0;
      if (pendingSteps > 0) entry.pendingSteps = pendingSteps;
    }
    return entries;
  }
}
