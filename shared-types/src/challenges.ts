import { type Static, Type } from "typebox";
import { CharityNameSchema } from "./charity-api.js";
import { addDays, type DayString, daysBetween } from "./dates.js";
import { StepDate } from "./steps.js";
import { MultiLineText, SingleLineText } from "./text.js";

/**
 * Challenges: a target to walk toward over a few weeks, alone (`total_steps`, `daily_target`) or
 * as a group's team (`team_total`), often for a charity. Operators set public ones; a group's admin
 * sets the group's own. Steps count as on the leaderboards: every counted step, pending ones too.
 */
export const CHALLENGE_KINDS = ["total_steps", "daily_target", "team_total"] as const;
export type ChallengeKind = (typeof CHALLENGE_KINDS)[number];
export const CHALLENGE_SCOPES = ["public", "group"] as const;
export type ChallengeScope = (typeof CHALLENGE_SCOPES)[number];

export const CHALLENGES_PATH = "/api/challenges";
export const challengePath = (id: string) => `/api/challenges/${id}`;
export const challengeJoinPath = (id: string) => `/api/challenges/${id}/join`;
export const challengeLeavePath = (id: string) => `/api/challenges/${id}/leave`;
export const challengeLeaderboardPath = (id: string) => `/api/challenges/${id}/leaderboard`;
export const challengeCertificatePath = (id: string) => `/api/challenges/${id}/certificate`;
export const challengeFundraisingPath = (id: string) => `/api/challenges/${id}/fundraising`;
export const challengePublicPath = (id: string) => `/api/challenges/${id}/public`;
export const OPERATOR_CHALLENGES_PATH = "/api/operator/challenges";
export const operatorChallengePath = (id: string) => `/api/operator/challenges/${id}`;
export const groupChallengesPath = (groupId: number | string) => `/api/groups/${groupId}/challenges`;

/** A challenge's period at most, counting both ends: `endsOn` is at most 91 days after `startsOn`. */
export const CHALLENGE_MAX_DAYS = 92;
export const CHALLENGE_NAME_MAX = 80;
export const CHALLENGE_DESCRIPTION_MAX = 1_000;
export const CHALLENGE_STEPS_TARGET_MAX = 10_000_000;
/** A day's steps a `daily_target` challenge may ask for at most: the most a day can count. */
export const CHALLENGE_DAILY_TARGET_MAX = 50_000;
/** Challenges a walker may have joined at once (those not ended count). */
export const CHALLENGES_JOINED_MAX = 200;
/** A group's challenges not yet ended, at most. */
export const GROUP_RUNNING_CHALLENGES_MAX = 5;
/** How long an ended challenge stays in the walker's list. */
export const CHALLENGE_LISTED_AFTER_END_DAYS = 30;
/** A leaderboard's rows per page. */
export const CHALLENGE_LEADERBOARD_PAGE = 50;

/** Where a walker's fundraising page may be: these sites, and their subdomains, over https. */
export const FUNDRAISING_HOSTS = [
  "justgiving.com",
  "enthuse.com",
  "givepenny.com",
  "cancerresearchuk.org",
  "crohnsandcolitis.org.uk",
  "bhf.org.uk",
] as const;
export const FUNDRAISING_URL_MAX = 2_048;

/** True for an https: address on one of FUNDRAISING_HOSTS or a subdomain of one, with no credentials. */
export function isFundraisingUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password || url.port) return false;
  const host = url.hostname.toLowerCase();
  return FUNDRAISING_HOSTS.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

export const CHALLENGE_MESSAGES = {
  notFound: "There is no such challenge.",
  fundraisingUrl: `A fundraising page must be an https: address on ${FUNDRAISING_HOSTS.join(", ")}, or a subdomain of one of them.`,
  fundraisingNotJoined: "Join the challenge before adding your fundraising page.",
  endsBeforeStart: "The end date must be on or after the start date.",
  tooLong: `A challenge lasts at most ${CHALLENGE_MAX_DAYS} days, counting both ends.`,
  startsInPast: "A challenge cannot start before today (London time).",
  dailyTargetOnlyForDaily: "Steps a day are set only for a challenge of days on a daily target.",
  dailyTargetNeeded:
    "A challenge of days on a daily target needs its steps a day: the steps that make a day count.",
  daysTarget: "A target in days can be at most the days the challenge lasts, counting both ends.",
  started: "This challenge has started: only its end can be moved, and only later.",
  ended: "This challenge has ended.",
  tooManyJoined: `You can be in at most ${CHALLENGES_JOINED_MAX} challenges that have not ended.`,
  tooManyRunning: `A group can have at most ${GROUP_RUNNING_CHALLENGES_MAX} challenges that have not ended.`,
  notCompleted: "The certificate comes once you have completed the challenge.",
  notAdmin: "Only the group's admin can set its challenges.",
  badCursor: "cursor is not one this leaderboard gave.",
  certificatesTooFast: "Too many certificates drawn just now. Please try again in a minute.",
} as const;

/** What both create routes (and the operator's edit) take. */
export const ChallengeInput = Type.Object(
  {
    name: /* @__PURE__ */ SingleLineText({ minLength: 1, maxLength: CHALLENGE_NAME_MAX }),
    description: /* @__PURE__ */ MultiLineText({ maxLength: CHALLENGE_DESCRIPTION_MAX }),
    charityName: Type.Union([CharityNameSchema, Type.Null()]),
    kind: Type.Enum(CHALLENGE_KINDS),
    target: Type.Integer({ minimum: 1, maximum: CHALLENGE_STEPS_TARGET_MAX }),
    dailyTarget: Type.Union([Type.Integer({ minimum: 1, maximum: CHALLENGE_DAILY_TARGET_MAX }), Type.Null()]),
    startsOn: StepDate,
    endsOn: StepDate,
  },
  { additionalProperties: false },
);
export type ChallengeInput = Static<typeof ChallengeInput>;

export const ChallengeProgress = Type.Object({
  /** Steps (`total_steps`, `team_total`) or days on target (`daily_target`). */
  value: Type.Integer(),
  target: Type.Integer(),
  /** Rounded down, at most 100. */
  percent: Type.Integer({ minimum: 0, maximum: 100 }),
});
export type ChallengeProgress = Static<typeof ChallengeProgress>;

export const ChallengeItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  charityName: Type.Union([CharityNameSchema, Type.Null()]),
  kind: Type.Enum(CHALLENGE_KINDS),
  target: Type.Integer(),
  dailyTarget: Type.Union([Type.Integer(), Type.Null()]),
  startsOn: Type.String(),
  endsOn: Type.String(),
  scope: Type.Enum(CHALLENGE_SCOPES),
  groupId: Type.Union([Type.Integer(), Type.Null()]),
  joined: Type.Boolean(),
  /** The walker's progress (the team's in `team_total`); null until joined. */
  progress: Type.Union([ChallengeProgress, Type.Null()]),
  completedAt: Type.Union([Type.String({ description: "ISO 8601" }), Type.Null()]),
});
export type ChallengeItem = Static<typeof ChallengeItem>;

export const ChallengesResponse = Type.Object({ items: Type.Array(ChallengeItem) });
export type ChallengesResponse = Static<typeof ChallengesResponse>;

export const ChallengeLeaderboardQuery = Type.Object(
  { cursor: Type.Optional(Type.String({ maxLength: 32 })) },
  { additionalProperties: false },
);
export const ChallengeLeaderboardEntry = Type.Object({
  rank: Type.Integer(),
  displayName: Type.String(),
  /** The walker's own part: their steps, or their days on target. */
  progress: ChallengeProgress,
  fundraisingUrl: Type.Union([Type.String(), Type.Null()]),
  /** Of the walker's steps in the period, those waiting for a check; absent when none. */
  pendingSteps: Type.Optional(Type.Integer()),
});
export type ChallengeLeaderboardEntry = Static<typeof ChallengeLeaderboardEntry>;
export const ChallengeLeaderboardResponse = Type.Object({
  items: Type.Array(ChallengeLeaderboardEntry),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type ChallengeLeaderboardResponse = Static<typeof ChallengeLeaderboardResponse>;

export const FundraisingRequest = Type.Object(
  { url: /* @__PURE__ */ SingleLineText({ minLength: 1, maxLength: FUNDRAISING_URL_MAX }) },
  { additionalProperties: false },
);

/** A public challenge as anyone sees it: totals only, no names. */
export const PublicChallenge = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  charityName: Type.Union([CharityNameSchema, Type.Null()]),
  kind: Type.Enum(CHALLENGE_KINDS),
  target: Type.Integer(),
  startsOn: Type.String(),
  endsOn: Type.String(),
  walkers: Type.Integer(),
  steps: Type.Integer(),
});
export type PublicChallenge = Static<typeof PublicChallenge>;

/** A challenge's id is a UUID: anything else (a NUL, which PostgreSQL cannot compare) is a 400. */
export const ChallengeParams = Type.Object({
  id: Type.String({
    pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
    description: "A UUID",
  }),
});

/** The days of a challenge, counting both ends. */
export function challengeDays(challenge: Pick<ChallengeItem, "startsOn" | "endsOn">): number {
  return daysBetween(challenge.startsOn, challenge.endsOn) + 1;
}

/** `value` of `target`, as a challenge's progress: percent rounded down and capped at 100. */
export function challengeProgress(value: number, target: number): ChallengeProgress {
  return { value, target, percent: Math.min(100, Math.floor((value * 100) / target)) };
}

export interface ChallengePace {
  /** Days left to walk, today included; 0 once it has ended. */
  daysLeft: number;
  /** Whether the walker (or the team) is where an even pace would have them by the end of today. */
  onTrack: boolean;
  /** Steps a day from today to reach the target: days on target for `daily_target`, 0 when reached. */
  stepsPerDay: number;
}

/** Where a joined challenge stands on London day `today`, for its card: days left and the pace. */
export function challengePace(challenge: ChallengeItem, today: DayString): ChallengePace {
  const total = challengeDays(challenge);
  const daysLeft = today > challenge.endsOn ? 0 : Math.min(total, daysBetween(today, challenge.endsOn) + 1);
  const value = challenge.progress?.value ?? 0;
  const remaining = Math.max(0, challenge.target - value);
  if (remaining === 0) return { daysLeft, onTrack: true, stepsPerDay: 0 };
  if (challenge.kind === "daily_target") {
    return { daysLeft, onTrack: remaining <= daysLeft, stepsPerDay: challenge.dailyTarget ?? 0 };
  }
  const elapsed = Math.min(total, Math.max(0, total - daysLeft + 1));
  const expected = (challenge.target * elapsed) / total;
  return {
    daysLeft,
    onTrack: value >= expected,
    stepsPerDay: daysLeft === 0 ? 0 : Math.ceil(remaining / daysLeft),
  };
}

/** The last day an ended challenge is still listed. */
export function challengeListedUntil(endsOn: DayString): DayString {
  return addDays(endsOn, CHALLENGE_LISTED_AFTER_END_DAYS);
}
