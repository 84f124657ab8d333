import { type DayString, londonDay, shortDisplayName } from "@charity-steps/shared-types";
import { READINGS_SHARED_MS, SharedReadings } from "../db/shared-readings.js";
import type { EligibleSteps } from "../ledger/eligible-steps.js";
import type { ChallengeRow, ChallengesRepository, MemberProgress } from "../repositories/challenges.js";

/** A member's place: their own part (days on target, or steps) and the steps of it waiting for a check. */
export interface Standing {
  rank: number;
  userId: string;
  displayName: string;
  value: number;
  steps: number;
  pendingSteps: number;
  fundraisingUrl: string | null;
}

/** Every member ranked, and the members' steps together (a team's total). */
export interface Standings {
  ranked: Standing[];
  steps: number;
}

/**
 * Challenges' standings: each member's part over the period and the steps of it waiting for a
 * check, ranked. Reading them is a pass over every member's days, which at 10,000 members takes
 * about a tenth of a second, so a challenge's standings are shared by its readers (leaderboard
 * pages, the team's total, the public totals) for `READINGS_SHARED_MS`, at most one reading at a
 * time. Joining, leaving and fundraising links drop them at once in this process; steps are
 * shown at most that long after they arrive, except where a team's completion is judged, which
 * asks for a reading begun after the steps (`fresh`).
 */
export class ChallengeStandings {
  private readonly readings: SharedReadings<Standings>;

  constructor(
    private readonly deps: {
      challenges: Pick<ChallengesRepository, "progress">;
      eligibleSteps: Pick<EligibleSteps, "heldDays">;
    },
    /** How long standings are shared; 0 reads them for every reader (the bench's reference). */
    freshMs = READINGS_SHARED_MS,
  ) {
    this.readings = new SharedReadings(freshMs);
  }

  /** The challenge's standings as last read, when read in the last few seconds; else read now. */
  async get(challenge: ChallengeRow, now: number): Promise<Standings> {
    const to = countsTo(challenge, now);
    return this.readings.get(challenge.id, to, now, () => this.read(challenge, to));
  }

  /** Standings read from a moment after this call: a reading under way may have begun before it. */
  async fresh(challenge: ChallengeRow, now: number): Promise<Standings> {
    const to = countsTo(challenge, now);
    return this.readings.fresh(challenge.id, to, now, () => this.read(challenge, to));
  }

  /** Drops the challenge's standings: its members or their links changed. */
  forget(challengeId: string): void {
    this.readings.forget(challengeId);
  }

  private async read(challenge: ChallengeRow, to: DayString): Promise<Standings> {
    const [rows, held] = await Promise.all([
      this.deps.challenges.progress(challenge, to),
      this.deps.eligibleSteps.heldDays({ from: challenge.starts_on, to, challengeId: challenge.id }),
    ]);
    const pending = new Map<string, number>();
    for (const day of held) pending.set(day.userId, (pending.get(day.userId) ?? 0) + day.pendingSteps);
    return {
      ranked: rank(challenge, rows, pending),
      steps: rows.reduce((sum, row) => sum + row.steps, 0),
    };
  }
}

/** The last London day that counts so far: today while the challenge runs, then its end. */
export function countsTo(challenge: ChallengeRow, now: number): DayString {
  const today = londonDay(now);
  // Days are YYYY-MM-DD strings, which sort as the days do (no Math.min for strings).
  return [today, challenge.ends_on].sort()[0] as DayString;
}

/** Members by their own part (days on target, or steps), ties by name then id; equal parts share a rank. */
function rank(challenge: ChallengeRow, rows: MemberProgress[], pending: Map<string, number>): Standing[] {
  const partOf = (row: MemberProgress) => (challenge.kind === "daily_target" ? row.daysOnTarget : row.steps);
  const sorted = [...rows].sort(
    (a, b) =>
      partOf(b) - partOf(a) ||
      names.compare(a.firstName ?? "", b.firstName ?? "") ||
      names.compare(a.lastName ?? "", b.lastName ?? "") ||
      (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0),
  );
  let previous: { value: number; rank: number } | undefined;
  return sorted.map((row, index) => {
    const value = partOf(row);
    const position = previous?.value === value ? previous.rank : index + 1;
    previous = { value, rank: position };
    return {
      rank: position,
      userId: row.userId,
      displayName: shortDisplayName(row.firstName, row.lastName),
      value,
      steps: row.steps,
      pendingSteps: pending.get(row.userId) ?? 0,
      fundraisingUrl: row.fundraisingUrl,
    };
  });
}

const names = new Intl.Collator("en-GB");
