import { type Static, Type } from "typebox";
import { CHARITY_NAMES, type CharityName } from "./charity.js";
import { DAILY_STEP_GOAL, MONTHLY_STEP_GOAL, STEPS_PER_PRIZE_ENTRY } from "./constants.js";
import { formatNumber } from "./numbers.js";

/** A walker's milestones: each is earned once, when first reached, and kept whatever happens later. */
export const BADGES_PATH = "/api/badges";

/** The streaks that earn a badge, in days on goal in a row. */
export const STREAK_BADGE_DAYS = [3, 7, 30] as const;
/** Every counted step a walker has ever walked, for the lifetime badge. */
export const LIFETIME_BADGE_STEPS = 1_000_000;

export const FIRST_PRIZE_ENTRY_BADGE = "first-prize-entry";
export const JOINED_GROUP_BADGE = "joined-a-group";

/** What a badge asks of a walker's record; `BadgeFacts` says how far they have gone. */
export type BadgeRule =
  | { kind: "best-day"; steps: number }
  | { kind: "streak"; days: number }
  | { kind: "best-month"; steps: number }
  | { kind: "lifetime"; steps: number }
  | { kind: "prize-entry" }
  | { kind: "group" }
  | { kind: "charity-month"; charityName: CharityName; steps: number };

export interface BadgeDefinition {
  id: string;
  name: string;
  description: string;
  rule: BadgeRule;
}

const steps = (count: number) => formatNumber(count);

/** `walked-for-cancer-research-uk`: a charity's badge id, from its name. */
export function charityBadgeId(charityName: CharityName): string {
  return `walked-for-${charityName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}`;
}

function charityBadge(charityName: CharityName): BadgeDefinition {
  return {
    id: charityBadgeId(charityName),
    name: `Walked for ${charityName}`,
    description: `Walk ${steps(MONTHLY_STEP_GOAL)} steps in a month while supporting ${charityName}.`,
    rule: { kind: "charity-month", charityName, steps: MONTHLY_STEP_GOAL },
  };
}

/** Every badge, in the order the Account page lists them; the charities' come last. */
export const BADGES: readonly BadgeDefinition[] = [
  {
    id: "first-10000-step-day",
    name: `First ${steps(DAILY_STEP_GOAL)}-step day`,
    description: `Walk ${steps(DAILY_STEP_GOAL)} steps in one day.`,
    rule: { kind: "best-day", steps: DAILY_STEP_GOAL },
  },
  ...STREAK_BADGE_DAYS.map(
    (days): BadgeDefinition => ({
      id: `${days}-day-streak`,
      name: `${days}-day streak`,
      description: `Reach your daily goal ${days} days in a row.`,
      rule: { kind: "streak", days },
    }),
  ),
  {
    id: "100000-steps-in-a-month",
    name: `${steps(MONTHLY_STEP_GOAL)} steps in a month`,
    description: `Walk ${steps(MONTHLY_STEP_GOAL)} steps in one calendar month.`,
    rule: { kind: "best-month", steps: MONTHLY_STEP_GOAL },
  },
  {
    id: "1000000-steps",
    name: `${steps(LIFETIME_BADGE_STEPS)} steps`,
    description: `Walk ${steps(LIFETIME_BADGE_STEPS)} steps in all.`,
    rule: { kind: "lifetime", steps: LIFETIME_BADGE_STEPS },
  },
  {
    id: FIRST_PRIZE_ENTRY_BADGE,
    name: "First prize entry",
    description: `Earn an entry in the monthly prize draw (one for every ${steps(STEPS_PER_PRIZE_ENTRY)} eligible steps).`,
    rule: { kind: "prize-entry" },
  },
  {
    id: JOINED_GROUP_BADGE,
    name: "Joined a group",
    description: "Join a walking group, or start one.",
    rule: { kind: "group" },
  },
  ...CHARITY_NAMES.map(charityBadge),
];

/** How far a walker has gone, as the badges' rules read it (counted steps, pending ones included). */
export interface BadgeFacts {
  bestDaySteps: number;
  bestStreak: number;
  bestMonthSteps: number;
  lifetimeSteps: number;
  hasPrizeEntry: boolean;
  inGroup: boolean;
  /** The charity the walker supports now; null before they choose one. */
  charityName: CharityName | null;
  /**
   * The larger of this month's and last month's steps: a month walked while supporting the charity
   * chosen now (last month's too, as its late days can still arrive).
   */
  recentMonthSteps: number;
}

/** Whether `facts` reach `rule`. */
export function reaches(rule: BadgeRule, facts: BadgeFacts): boolean {
  switch (rule.kind) {
    case "best-day":
      return facts.bestDaySteps >= rule.steps;
    case "streak":
      return facts.bestStreak >= rule.days;
    case "best-month":
      return facts.bestMonthSteps >= rule.steps;
    case "lifetime":
      return facts.lifetimeSteps >= rule.steps;
    case "prize-entry":
      return facts.hasPrizeEntry;
    case "group":
      return facts.inGroup;
    case "charity-month":
      return facts.charityName === rule.charityName && facts.recentMonthSteps >= rule.steps;
  }
}

/**
 * The badges a walker is shown: every badge but the charities', then the charity they support now
 * (earned or not) and any other charity's they earned before changing.
 */
export function badgesShown(
  charityName: CharityName | null,
  earned: ReadonlyMap<string, number>,
): readonly BadgeDefinition[] {
  return BADGES.filter(
    (badge) =>
      badge.rule.kind !== "charity-month" || badge.rule.charityName === charityName || earned.has(badge.id),
  );
}

export const Badge = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  earnedAt: Type.Union([Type.String({ description: "ISO 8601 timestamp" }), Type.Null()], {
    description: "When the badge was awarded; null until it is",
  }),
});
export type Badge = Static<typeof Badge>;

export const BadgesResponse = Type.Object({ items: Type.Array(Badge) });
export type BadgesResponse = Static<typeof BadgesResponse>;
