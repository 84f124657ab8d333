import { type DayString, londonDay, shortDisplayName } from "@charity-steps/shared-types";
import { READINGS_SHARED_MS, SharedReadings } from "../db/shared-readings.js";
import type { EligibleSteps } from "../ledger/eligible-steps.js";
import type { ChallengeRow, ChallengesRepository, MemberProgress } from "../repositories/challenges.js";

/** A member's place: their own part (days on target, or steps) and the steps of it waiting for a check. */
export interface Standing {
  rank: number;
  userId: string;
  firstName: string | null;
  lastName: string | null;
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
      eligibleSteps: Pick<EligibleSteps, "pendingByWalker">;
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
    const [rows, pending] = await Promise.all([
      this.deps.challenges.progress(challenge, to),
      this.deps.eligibleSteps.pendingByWalker({ from: challenge.starts_on, to, challengeId: challenge.id }),
    ]);
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
  const standings = rows.map((row) => standingOf(challenge, row, pending.get(row.userId) ?? 0));
  return ranked(standings.sort(byPlace));
}

/**
 * The standings with one member's row as it is now (their steps and held steps read this moment),
 * everyone else's as shared: the row moves to its place, and the ranks after it follow.
 */
export function withOwnRow(
  challenge: ChallengeRow,
  standings: Standings,
  own: MemberProgress,
  ownPendingSteps: number,
): Standings {
  const row = standingOf(challenge, own, ownPendingSteps);
  const kept = standings.ranked.find((each) => each.userId === own.userId);
  const others = standings.ranked.filter((each) => each.userId !== own.userId);
  let low = 0;
  let high = others.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (byPlace(others[middle] as Standing, row) < 0) low = middle + 1;
    else high = middle;
  }
  others.splice(low, 0, row);
  return { ranked: ranked(others), steps: standings.steps - (kept?.steps ?? 0) + own.steps };
}

function standingOf(challenge: ChallengeRow, row: MemberProgress, pendingSteps: number): Standing {
  return {
    rank: 0,
    userId: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    displayName: shortDisplayName(row.firstName, row.lastName),
    value: challenge.kind === "daily_target" ? row.daysOnTarget : row.steps,
    steps: row.steps,
    pendingSteps,
    fundraisingUrl: row.fundraisingUrl,
  };
}

/** The order of places: the larger part first, then by name, then by id (the same on both databases). */
function byPlace(a: Standing, b: Standing): number {
  return (
    b.value - a.value ||
    names.compare(a.firstName ?? "", b.firstName ?? "") ||
    names.compare(a.lastName ?? "", b.lastName ?? "") ||
    (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0)
  );
}

/** Ranks rows in place order: equal parts share a rank, and the next rank skips (1, 1, 3). */
function ranked(rows: Standing[]): Standing[] {
  let previous: Standing | undefined;
  return rows.map((row, index) => {
    const place = { ...row, rank: previous?.value === row.value ? previous.rank : index + 1 };
    previous = place;
    return place;
  });
}

const names = new Intl.Collator("en-GB");
