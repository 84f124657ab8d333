import {
  DAY_PRIZE_CEILING_STEPS,
  type DayString,
  type FairPlayCounter,
  fairPlayDay,
  groupBy,
  isLateDay,
  LATE_DAY_AFTER_MS,
  type MonthString,
  monthOfDay,
  NEW_DEVICES_PER_DAY_MAX,
  REVIEW_REASONS,
  type ReviewReasonCode,
} from "@charity-steps/shared-types";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database, DialectName } from "../db/database.js";
import { jsonRows, rowsOfEachKey, rowsParam } from "../db/json-rows.js";
import type { DatabaseSchema } from "../db/schema/index.js";

/** A walker's month: every step counted, those that count for prizes, and those waiting for a check. */
export interface EligibleMonth {
  userId: string;
  countedSteps: number;
  eligibleSteps: number;
  pendingSteps: number;
}

/** A day holding steps back from prizes: its counted total, its eligible steps, and those that wait. */
export interface HeldDay {
  userId: string;
  day: DayString;
  countedSteps: number;
  eligibleSteps: number;
  pendingSteps: number;
  /** Of the pending steps, those the day rules hold (late, ceiling, devices). */
  dayHeldSteps: number;
  /** Why steps wait: the day rules', the pace's, and the reasons of manual entries that wait. */
  reasons: ReviewReasonCode[];
  /** Whether the day arrived late. */
  late: boolean;
}

interface DayKey {
  user_id: string;
  day: string;
}

const keyOf = (row: DayKey) => `${row.user_id}|${row.day}`;

/**
 * Bounds that take in every day of `from`'s month to `to`'s: days compare as text, so the 31st
 * bounds any month, as the other month reads do.
 */
function wholeMonths(from: DayString, to: DayString): { from: DayString; to: DayString } {
  return { from: `${monthOfDay(from)}-01`, to: `${monthOfDay(to)}-31` };
}

/**
 * The ledger read as fair play counts it: which steps count for prizes, and which wait for a check.
 * Reads on the database, or on a transaction (`db`) when the caller counts inside one.
 */
export class EligibleSteps {
  constructor(private readonly database: Database) {}

  /**
   * The days from `from` to `to` (of every walker, or only `userId`'s or `userIds'`, or only the members of group
   * `groupId` or of challenge `challengeId`) that hold steps back from prizes: a manual entry not approved, a counter's steps above
   * the pace not approved, or steps the day rules hold (a late day, a day above the ceiling, more
   * devices than count). Each such day is weighed by `fairPlayDay`, from its counters, its manual
   * entries, whether it is late and which of its month's late days it is, and what operators
   * decided of it. Every other day counts for prizes exactly as it is counted.
   */
  async heldDays(
    range: {
      from: DayString;
      to: DayString;
      userId?: string;
      userIds?: readonly string[];
      groupId?: number;
      challengeId?: string;
    },
    db: Kysely<DatabaseSchema> = this.database.db,
  ): Promise<HeldDay[]> {
    const { dialect } = this.database;
    // Whole months: a late day's place among its month's late days needs all of them.
    const { from, to } = wholeMonths(range.from, range.to);
    // Every walker's days, or one walker's, or a group's members'.
    const walkers = (column: string) => {
      const ref = sql.ref(column);
      const conditions = [sql<boolean>`1 = 1`];
      if (range.userId !== undefined) conditions.push(sql<boolean>`${ref} = ${range.userId}`);
      if (range.userIds !== undefined) {
        conditions.push(
          range.userIds.length === 0
            ? sql<boolean>`1 = 0`
            : sql<boolean>`${ref} in (${sql.join(range.userIds)})`,
        );
      }
      if (range.groupId !== undefined) {
        conditions.push(
          sql<boolean>`${ref} in (select m.user_id from group_members m where m.group_id = ${range.groupId})`,
        );
      }
      if (range.challengeId !== undefined) {
        conditions.push(
          sql<boolean>`${ref} in (select c.user_id from challenge_members c where c.challenge_id = ${range.challengeId})`,
        );
      }
      return sql<boolean>`${sql.join(conditions, sql` and `)}`;
    };
    // A day is late when its first reading came after `lateDayAfter(day)`, a wait after London's
    // next midnight. London's midnight is UTC's or an hour before it, so a late day's first reading
    // is always past the day's UTC midnight, plus 23 hours, plus the wait. That bound is worked out
    // on each row (a join to each day's exact moment was read once per row, which took a second at
    // 10,000 walkers), and `weigh` applies the exact rule to the days it lets through.
    const utcMidnightMs =
      dialect === "postgres"
        ? sql<number>`((s.day::date - date '1970-01-01')::bigint * 86400000)`
        : sql<number>`(unixepoch(s.day) * 1000)`;
    const earliestLate = 23 * 3_600_000 + LATE_DAY_AFTER_MS;
    // The days that may hold steps back, in one statement (a round trip, not five): late days (and
    // a few on time near the bound) and days above the ceiling; days with more devices than count;
    // manual entries not approved; counters' steps above the pace; days an operator decided. The
    // `union` answers each day once, however many of the five find it.
    const read = (on: Kysely<DatabaseSchema>) =>
      sql<DayKey>`
        select s.user_id, s.day from step_days s
        where s.day >= ${from} and s.day <= ${to} and ${walkers("s.user_id")}
          and (s.first_reading_at > ${utcMidnightMs} + ${earliestLate}
            or s.total_steps > ${DAY_PRIZE_CEILING_STEPS})
        union
        select c.user_id, c.day from step_counters c
        where c.kind = 'motion' and c.day >= ${from} and c.day <= ${to} and ${walkers("c.user_id")}
        group by c.user_id, c.day
        having count(*) > ${NEW_DEVICES_PER_DAY_MAX}
        union
        select e.user_id, e.day from manual_step_entries e
        where e.status <> 'approved' and e.day >= ${from} and e.day <= ${to}
          and ${walkers("e.user_id")}
        union
        select c.user_id, c.day from step_counters c
        where (c.pending_steps > 0 or c.rejected_steps > 0) and c.day >= ${from} and c.day <= ${to}
          and ${walkers("c.user_id")}
        union
        select d.user_id, d.day from day_reviews d
        where d.day >= ${from} and d.day <= ${to} and ${walkers("d.user_id")}`.execute(on);
    // A group's, a challenge's or every walker's days are planned for their dates at each run.
    const manyWalkers = range.userId === undefined && range.userIds === undefined;
    const { rows: days } = manyWalkers ? await this.database.planEachRun(read, db) : await read(db);
    if (days.length === 0) return [];
    return (await this.weigh(days, db)).filter((day) => day.day >= range.from && day.day <= range.to);
  }

  /** Each walker's steps waiting for a check over `range` (as `heldDays` reads it); none are absent. */
  async pendingByWalker(range: Parameters<EligibleSteps["heldDays"]>[0]): Promise<Map<string, number>> {
    const pending = new Map<string, number>();
    for (const day of await this.heldDays(range)) {
      pending.set(day.userId, (pending.get(day.userId) ?? 0) + day.pendingSteps);
    }
    return pending;
  }

  /** Weighs each of `days` by fair play's day rules, from its parts read in four queries. */
  private async weigh(days: DayKey[], db: Kysely<DatabaseSchema>): Promise<HeldDay[]> {
    const parts = dayPartsQueries(this.database.dialect, rowsParam(days));
    const [counters, manual, stored, decided] = await Promise.all([
      parts.counters.execute(db),
      parts.manual.execute(db),
      parts.stored.execute(db),
      parts.decided.execute(db),
    ]).then(([c, m, s, d]) => [c.rows, m.rows, s.rows, d.rows] as const);
    const countersOf = groupBy(
      counters,
      keyOf,
      (c): FairPlayCounter => ({
        kind: c.kind,
        steps: Number(c.steps),
        pendingSteps: Number(c.pending_steps),
        rejectedSteps: Number(c.rejected_steps),
        createdAt: c.created_at === null ? null : Number(c.created_at),
        counterId: c.counter_id,
      }),
    );
    const manualOf = new Map<string, { approved: number; pending: number; reasons: Set<string> }>();
    for (const entry of manual) {
      const sums = manualOf.get(keyOf(entry)) ?? { approved: 0, pending: 0, reasons: new Set<string>() };
      if (entry.status === "approved") sums.approved += Number(entry.steps);
      else {
        sums.pending += Number(entry.steps);
        for (const code of JSON.parse(entry.reasons) as string[]) sums.reasons.add(code);
      }
      manualOf.set(keyOf(entry), sums);
    }
    const decisionOf = new Map(decided.map((row) => [keyOf(row), row]));
    // Each walker's late days by month, in the order they arrived: the first few count at once.
    const lateRank = new Map<string, number>();
    const late = stored
      .filter((day) =>
        isLateDay(day.day, day.first_reading_at === null ? null : Number(day.first_reading_at)),
      )
      .sort(
        (a, b) =>
          Number(a.first_reading_at) - Number(b.first_reading_at) ||
          (a.day < b.day ? -1 : a.day > b.day ? 1 : 0),
      );
    const seen = new Map<string, number>();
    for (const day of late) {
      const walkerMonth = `${day.user_id}|${monthOfDay(day.day)}`;
      const rank = (seen.get(walkerMonth) ?? 0) + 1;
      seen.set(walkerMonth, rank);
      lateRank.set(keyOf(day), rank);
    }
    const held: HeldDay[] = [];
    for (const day of stored) {
      const key = keyOf(day);
      const decision = decisionOf.get(key);
      const rank = lateRank.get(key);
      const weighed = fairPlayDay({
        counters: countersOf.get(key) ?? [],
        manualApproved: manualOf.get(key)?.approved ?? 0,
        manualPending: manualOf.get(key)?.pending ?? 0,
        late: rank !== undefined,
        lateRank: rank ?? 0,
        approvedDaySteps: Number(decision?.approved_steps ?? 0),
        rejectedDaySteps: Number(decision?.rejected_steps ?? 0),
      });
      const counted = Number(day.total_steps);
      if (weighed.eligible >= counted && weighed.pending === 0) continue;
      const paceWaits = (countersOf.get(key) ?? []).some((counter) => counter.pendingSteps > 0);
      const why = new Set<string>([
        ...(manualOf.get(key)?.reasons ?? []),
        ...(paceWaits ? ["pace"] : []),
        ...weighed.reasons,
      ]);
      held.push({
        userId: day.user_id,
        day: day.day,
        countedSteps: counted,
        eligibleSteps: Math.min(counted, weighed.eligible),
        pendingSteps: weighed.pending,
        dayHeldSteps: weighed.dayHeld,
        reasons: REVIEW_REASONS.filter((code) => why.has(code)),
        late: rank !== undefined,
      });
    }
    return held;
  }

  /**
   * Each walker's month (or only `userIds'`) split by fair play: its counted total (the ledger's
   * month row) less what its few held days hold back (`heldDays`). Walkers without steps that
   * month are not in the map.
   */
  async months(
    month: MonthString,
    userIds?: readonly string[],
    db: Kysely<DatabaseSchema> = this.database.db,
  ): Promise<Map<string, EligibleMonth>> {
    if (userIds !== undefined && userIds.length === 0) return new Map();
    let months = db.selectFrom("step_months").select(["user_id", "total_steps"]).where("month", "=", month);
    if (userIds !== undefined) months = months.where("user_id", "in", userIds);
    const range = { from: `${month}-01`, to: `${month}-31`, ...(userIds === undefined ? {} : { userIds }) };
    // Independent reads, so at once: the month rows and the days that hold steps back.
    const [rows, held] = await Promise.all([months.execute(), this.heldDays(range, db)]);
    const result = new Map<string, EligibleMonth>();
    for (const row of rows) {
      const steps = Number(row.total_steps);
      result.set(row.user_id, {
        userId: row.user_id,
        countedSteps: steps,
        eligibleSteps: steps,
        pendingSteps: 0,
      });
    }
    for (const day of held) {
      const walker = result.get(day.userId);
      if (!walker) continue;
      walker.eligibleSteps -= day.countedSteps - day.eligibleSteps;
      walker.pendingSteps += day.pendingSteps;
    }
    return result;
  }

  /** One walker's month split by fair play (all zero for a month without steps). */
  async month(month: MonthString, userId: string): Promise<EligibleMonth> {
    const months = await this.months(month, [userId]);
    return months.get(userId) ?? { userId, countedSteps: 0, eligibleSteps: 0, pendingSteps: 0 };
  }
}

/**
 * The four reads of the parts of the days in `daysJson` (user_id and day, as `rowsParam` writes
 * them) that fair play weighs: their counters, manual entries not rejected, stored totals and
 * operators' decisions, each looked up by its table's key (`rowsOfEachKey`). Exported for the test
 * that reads their plans.
 */
export function dayPartsQueries(dialect: DialectName, daysJson: string) {
  const each = (table: string, alias: string, where?: RawBuilder<boolean>) =>
    rowsOfEachKey(
      dialect,
      jsonRows(dialect, daysJson, { user_id: "text", day: "text" }),
      table,
      alias,
      ["user_id", "day"],
      where,
    );
  return {
    counters: sql<{
      user_id: string;
      day: string;
      counter_id: string;
      kind: "motion" | "health";
      steps: number;
      pending_steps: number;
      rejected_steps: number;
      created_at: number | null;
    }>`
      select c.user_id, c.day, c.counter_id, c.kind, c.steps, c.pending_steps, c.rejected_steps, c.created_at
      from ${each("step_counters", "c")}`,
    manual: sql<{ user_id: string; day: string; status: string; steps: number; reasons: string }>`
      select e.user_id, e.day, e.status, e.steps, e.reasons
      from ${each("manual_step_entries", "e", sql<boolean>`e.status <> 'rejected'`)}`,
    stored: sql<{ user_id: string; day: string; total_steps: number; first_reading_at: number | null }>`
      select s.user_id, s.day, s.total_steps, s.first_reading_at
      from ${each("step_days", "s")}`,
    decided: sql<{ user_id: string; day: string; approved_steps: number; rejected_steps: number }>`
      select d.user_id, d.day, d.approved_steps, d.rejected_steps
      from ${each("day_reviews", "d")}`,
  };
}
