import { randomUUID } from "node:crypto";
import {
  addDays,
  CHALLENGE_LEADERBOARD_PAGE,
  CHALLENGE_LISTED_AFTER_END_DAYS,
  CHALLENGE_MAX_DAYS,
  CHALLENGE_MESSAGES,
  CHALLENGES_JOINED_MAX,
  type ChallengeInput,
  type ChallengeItem,
  type ChallengeLeaderboardResponse,
  type ChallengeScope,
  challengeDays,
  challengeProgress,
  type DayString,
  daysBetween,
  formatLongDay,
  formatNumber,
  GROUP_RUNNING_CHALLENGES_MAX,
  isCalendarDay,
  isFundraisingUrl,
  isolated,
  londonDay,
  type PublicChallenge,
  trimInvisible,
} from "@charity-steps/shared-types";
import type { FastifyBaseLogger } from "fastify";
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../errors.js";
import type { EligibleSteps } from "../ledger/eligible-steps.js";
import type { Notifier } from "../notifications/notifier.js";
import type { AuditEntry } from "../repositories/audit-log.js";
import type { BadgesRepository } from "../repositories/badges.js";
import type {
  ChallengeMemberRow,
  ChallengeRow,
  ChallengesRepository,
  MemberProgress,
} from "../repositories/challenges.js";
import type { GroupsRepository } from "../repositories/groups.js";
import type { UsersRepository } from "../repositories/users.js";
import { type CertificateText, certificatePng } from "./certificate.js";
import { type ChallengeStandings, countsTo, type Standings, withOwnRow } from "./standings.js";

/** The badge a completed challenge gives: one per challenge. */
export const challengeBadgeId = (challengeId: string) => `challenge-${challengeId}`;

/** Certificates kept once drawn (each is a fraction of a second of CPU), newest last. */
const CERTIFICATES_KEPT = 200;
/** Certificates one walker may have drawn (not kept ones) in a minute: drawing holds the event loop. */
export const CERTIFICATES_DRAWN_PER_MINUTE = 6;
/** Walkers whose recent drawings are remembered; past it the oldest are forgotten. */
const DRAWERS_REMEMBERED = 10_000;

const steps = (count: number) => formatNumber(count);

/**
 * Challenges: who may see, set and join them, their progress, and their completion. Progress is
 * read from the walkers' days (no counter to keep in step with late syncs or reviews): a walker's
 * own each time, everyone's through the shared standings (`ChallengeStandings`); completion is set once, when a read or a walker's new steps find the target reached, and then
 * gives the challenge's badge and a `challenge_completed` notification.
 */
export class ChallengeService {
  private readonly certificates = new Map<string, Buffer>();
  /** When each walker's certificates were last drawn (not served from those kept). */
  private readonly drawnAt = new Map<string, number[]>();

  constructor(
    private readonly deps: {
      challenges: ChallengesRepository;
      standings: ChallengeStandings;
      eligibleSteps: Pick<EligibleSteps, "pendingByWalker">;
      groups: GroupsRepository;
      users: UsersRepository;
      badges: BadgesRepository;
      notifier: Pick<Notifier, "tell">;
      log: FastifyBaseLogger;
    },
  ) {}

  /** The walker's list: public challenges and their groups' not ended over 30 days ago. */
  async list(userId: string, now = Date.now()): Promise<ChallengeItem[]> {
    const today = londonDay(now);
    const visible = await this.deps.challenges.visibleTo(
      userId,
      addDays(today, -CHALLENGE_LISTED_AFTER_END_DAYS),
    );
    return Promise.all(visible.map(({ challenge, member }) => this.itemOf(challenge, member, userId, now)));
  }

  async item(id: string, userId: string, now = Date.now()): Promise<ChallengeItem> {
    const challenge = await this.visible(id, userId);
    const member = (await this.deps.challenges.member(id, userId)) ?? null;
    return this.itemOf(challenge, member, userId, now);
  }

  /** A public challenge (set by operators): anyone may join it. */
  async createPublic(input: ChallengeInput, operatorId: string, now = Date.now()): Promise<ChallengeItem> {
    const row = this.newRow(input, "public", null, operatorId, now);
    await this.deps.challenges.create(
      row,
      audit(operatorId, "challenge.create", row.id, null, publicFields(row), now),
    );
    return this.itemOf(row, null, operatorId, now);
  }

  /** A group's challenge, set by its admin; the group's members may join it. */
  async createForGroup(
    groupId: number,
    input: ChallengeInput,
    userId: string,
    now = Date.now(),
  ): Promise<ChallengeItem> {
    const found = await this.deps.groups.findForWalker(groupId, userId);
    if (!found?.member) throw new NotFoundError("There is no such group.");
    if (found.group.adminUserId !== userId) throw new ForbiddenError(CHALLENGE_MESSAGES.notAdmin);
    const row = { ...this.newRow(input, "group", groupId, userId, now), group_id: groupId };
    const outcome = await this.deps.challenges.createInGroup(
      row,
      londonDay(now),
      GROUP_RUNNING_CHALLENGES_MAX,
    );
    if (outcome === "gone") throw new NotFoundError("There is no such group.");
    if (outcome === "full") throw new ConflictError(CHALLENGE_MESSAGES.tooManyRunning);
    return this.itemOf(row, null, userId, now);
  }

  /**
   * An operator's change to a public challenge: anything before it starts; once started, only its
   * end, and only later (still within the longest period).
   */
  async editPublic(
    id: string,
    input: ChallengeInput,
    operatorId: string,
    now = Date.now(),
  ): Promise<ChallengeItem> {
    const before = await this.publicChallenge(id);
    const today = londonDay(now);
    const started = today >= before.starts_on;
    const changes = started
      ? { ends_on: input.endsOn, updated_at: now }
      : { ...fieldsOf(input), updated_at: now };
    if (started) {
      const same =
        input.name === before.name &&
        input.description === before.description &&
        input.charityName === before.charity_name &&
        input.kind === before.kind &&
        input.target === before.target &&
        input.dailyTarget === before.daily_target &&
        input.startsOn === before.starts_on;
      if (!same || input.endsOn < before.ends_on || today > before.ends_on) {
        throw new ConflictError(CHALLENGE_MESSAGES.started);
      }
      checkPeriod(before.starts_on, input.endsOn, null);
    } else {
      checkInput(input, today);
    }
    const after: ChallengeRow = { ...before, ...changes };
    await this.deps.challenges.update(
      id,
      changes,
      audit(operatorId, "challenge.edit", id, publicFields(before), publicFields(after), now),
    );
    this.deps.standings.forget(id);
    return this.itemOf(after, null, operatorId, now);
  }

  /** An operator cancels a public challenge that has not started: it goes, with its members. */
  async cancelPublic(id: string, operatorId: string, now = Date.now()): Promise<void> {
    const before = await this.publicChallenge(id);
    if (londonDay(now) >= before.starts_on) throw new ConflictError(CHALLENGE_MESSAGES.started);
    await this.deps.challenges.delete(
      id,
      audit(operatorId, "challenge.cancel", id, publicFields(before), null, now),
    );
    this.deps.standings.forget(id);
  }

  /** Joins the walker (steps since the start count); `joined` is false when they were in it already. */
  async join(
    id: string,
    userId: string,
    now = Date.now(),
  ): Promise<{ joined: boolean; item: ChallengeItem }> {
    const challenge = await this.visible(id, userId);
    const today = londonDay(now);
    if (today > challenge.ends_on) throw new ConflictError(CHALLENGE_MESSAGES.ended);
    const outcome = await this.deps.challenges.join(id, userId, now, { today, max: CHALLENGES_JOINED_MAX });
    if (outcome === "gone") throw new NotFoundError(CHALLENGE_MESSAGES.notFound);
    if (outcome === "full") throw new ConflictError(CHALLENGE_MESSAGES.tooManyJoined);
    this.deps.standings.forget(id);
    return { joined: outcome === "joined", item: await this.item(id, userId, now) };
  }

  async leave(id: string, userId: string, now = Date.now()): Promise<ChallengeItem> {
    await this.visible(id, userId);
    await this.deps.challenges.leave(id, userId);
    this.deps.standings.forget(id);
    return this.item(id, userId, now);
  }

  /** The members ranked by their own part, a page at a time: display names only. */
  async leaderboard(
    id: string,
    userId: string,
    cursor: string | undefined,
    now = Date.now(),
  ): Promise<ChallengeLeaderboardResponse> {
    const challenge = await this.visible(id, userId);
    const offset = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isSafeInteger(offset) || offset < 0 || String(offset) !== (cursor ?? "0")) {
      throw new BadRequestError(CHALLENGE_MESSAGES.badCursor);
    }
    // The shared standings, with the walker's own row as it is now: they see their latest steps in
    // their place, everyone else's as of the last few seconds.
    const to = countsTo(challenge, now);
    const [shared, [mine], held] = await Promise.all([
      this.deps.standings.get(challenge, now),
      this.deps.challenges.progress(challenge, to, userId),
      this.deps.eligibleSteps.pendingByWalker({ from: challenge.starts_on, to, userId }),
    ]);
    const ownPending = held.get(userId) ?? 0;
    const kept = shared.ranked.find((row) => row.userId === userId);
    const { ranked } =
      mine &&
      (kept?.steps !== mine.steps ||
        kept.pendingSteps !== ownPending ||
        kept.fundraisingUrl !== mine.fundraisingUrl)
        ? withOwnRow(challenge, shared, mine, ownPending)
        : shared;
    const page = ranked.slice(offset, offset + CHALLENGE_LEADERBOARD_PAGE);
    const next = offset + CHALLENGE_LEADERBOARD_PAGE;
    return {
      items: page.map((row) => ({
        rank: row.rank,
        displayName: row.displayName,
        progress: challengeProgress(row.value, challenge.target),
        fundraisingUrl: row.fundraisingUrl,
        ...(row.pendingSteps > 0 ? { pendingSteps: row.pendingSteps } : {}),
      })),
      nextCursor: next < ranked.length ? String(next) : null,
    };
  }

  /** The certificate of a completed challenge, as a PNG. */
  async certificate(id: string, userId: string, now = Date.now()): Promise<{ png: Buffer; name: string }> {
    const challenge = await this.visible(id, userId);
    const member = await this.deps.challenges.member(id, userId);
    if (!member) throw new NotFoundError(CHALLENGE_MESSAGES.notFound);
    const { item, mine } = await this.viewOf(challenge, member, userId, now);
    if (item.completedAt === null) throw new ConflictError(CHALLENGE_MESSAGES.notCompleted);
    const walker = await this.deps.users.findById(userId);
    const text: CertificateText = {
      walkerName: [walker?.first_name, walker?.last_name].filter(Boolean).join(" ") || "A walker",
      challengeName: challenge.name,
      achievement:
        challenge.kind === "daily_target"
          ? `${mine?.daysOnTarget ?? 0} days of ${steps(challenge.daily_target ?? 0)} steps`
          : challenge.kind === "team_total"
            ? `${steps(mine?.steps ?? 0)} steps toward the team's ${steps(challenge.target)}`
            : `${steps(mine?.steps ?? 0)} steps`,
      dates: `${formatLongDay(challenge.starts_on)} to ${formatLongDay(challenge.ends_on)}`,
      charityName: challenge.charity_name,
      fundraisingUrl: member.fundraising_url,
    };
    const key = JSON.stringify(text);
    let png = this.certificates.get(key);
    if (!png) {
      this.countDrawing(userId, now);
      png = await certificatePng(text);
      if (this.certificates.size >= CERTIFICATES_KEPT) {
        this.certificates.delete(this.certificates.keys().next().value as string);
      }
      this.certificates.set(key, png);
    }
    const slug =
      challenge.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "") || "challenge";
    return { png, name: `charity-steps-${slug}-certificate.png` };
  }

  /** Counts a drawing against the walker's minute; a 429 past CERTIFICATES_DRAWN_PER_MINUTE. */
  private countDrawing(userId: string, now: number): void {
    const recent = (this.drawnAt.get(userId) ?? []).filter((at) => now - at < 60_000);
    if (recent.length >= CERTIFICATES_DRAWN_PER_MINUTE) {
      throw new AppError(429, CHALLENGE_MESSAGES.certificatesTooFast);
    }
    this.drawnAt.delete(userId);
    if (this.drawnAt.size >= DRAWERS_REMEMBERED)
      this.drawnAt.delete(this.drawnAt.keys().next().value as string);
    this.drawnAt.set(userId, [...recent, now]);
  }

  /** Sets the walker's fundraising page in the challenge, or removes it with null. */
  async setFundraising(id: string, userId: string, url: string | null): Promise<void> {
    await this.visible(id, userId);
    if (url !== null && !isFundraisingUrl(url)) throw new BadRequestError(CHALLENGE_MESSAGES.fundraisingUrl);
    if (!(await this.deps.challenges.setFundraising(id, userId, url))) {
      throw new ConflictError(CHALLENGE_MESSAGES.fundraisingNotJoined);
    }
    this.deps.standings.forget(id);
  }

  /** A public challenge's totals, for anyone: no names. */
  async publicView(id: string, now = Date.now()): Promise<PublicChallenge> {
    const challenge = await this.deps.challenges.find(id);
    if (challenge?.scope !== "public") throw new NotFoundError(CHALLENGE_MESSAGES.notFound);
    const standings = await this.deps.standings.get(challenge, now);
    return {
      id: challenge.id,
      name: challenge.name,
      description: challenge.description,
      charityName: challenge.charity_name as PublicChallenge["charityName"],
      kind: challenge.kind,
      target: challenge.target,
      startsOn: challenge.starts_on,
      endsOn: challenge.ends_on,
      walkers: standings.ranked.length,
      steps: standings.steps,
    };
  }

  /**
   * Steps arrived for these walkers: completes whatever they joined that the steps now reach. Their
   * memberships are read in one query; a walker with a challenge under way reads its standing. One
   * walker's failure is logged and the others' looks go on.
   */
  async stepsArrived(userIds: readonly string[], now = Date.now()): Promise<void> {
    const today = londonDay(now);
    for (const [userId, memberships] of await this.deps.challenges.membershipsOfAll(userIds, today)) {
      try {
        for (const { challenge, member } of memberships) {
          if (challenge.starts_on <= today && member?.completed_at === null) {
            await this.itemOf(challenge, member, userId, now, { freshTeam: true });
          }
        }
      } catch (error) {
        this.deps.log.warn({ err: error, userId }, "challenges: a walker's look failed");
      }
    }
  }

  /** Names of the challenges whose badges the walker has, for the badge list. */
  async badgeNames(badgeIds: readonly string[]): Promise<Map<string, string>> {
    const ids = badgeIds
      .filter((id) => id.startsWith("challenge-"))
      .map((id) => id.slice("challenge-".length));
    const names = await this.deps.challenges.names(ids);
    return new Map([...names].map(([id, name]) => [challengeBadgeId(id), name]));
  }

  /**
   * The walker's view of a challenge, completing it (once) when its target is reached. A team's
   * total is the shared standings' with the walker's own steps read now (`freshTeam`: all of it
   * read after this call, where anyone's new steps may reach the target).
   */
  private async itemOf(
    challenge: ChallengeRow,
    member: ChallengeMemberRow | null,
    userId: string,
    now: number,
    options: { freshTeam?: boolean } = {},
  ): Promise<ChallengeItem> {
    return (await this.viewOf(challenge, member, userId, now, options)).item;
  }

  /** `itemOf`, with the walker's own steps and days on target it read (none when not joined). */
  private async viewOf(
    challenge: ChallengeRow,
    member: ChallengeMemberRow | null,
    userId: string,
    now: number,
    { freshTeam = false } = {},
  ): Promise<{ item: ChallengeItem; mine: MemberProgress | undefined }> {
    let completedAt = member?.completed_at ?? null;
    let progress: ChallengeItem["progress"] = null;
    let mine: MemberProgress | undefined;
    if (member) {
      const to = countsTo(challenge, now);
      const { standings } = this.deps;
      let team: Standings | null;
      [team, [mine]] = await Promise.all([
        challenge.kind !== "team_total"
          ? null
          : freshTeam
            ? standings.fresh(challenge, now)
            : standings.get(challenge, now),
        this.deps.challenges.progress(challenge, to, userId),
      ]);
      const ownSteps = mine?.steps ?? 0;
      // The team's total as shared, with the walker's own steps as they are now.
      const value = team
        ? team.steps - (team.ranked.find((row) => row.userId === userId)?.steps ?? 0) + ownSteps
        : challenge.kind === "daily_target"
          ? (mine?.daysOnTarget ?? 0)
          : ownSteps;
      progress = challengeProgress(value, challenge.target);
      if (completedAt === null && value >= challenge.target) {
        completedAt = now;
        await this.complete(challenge, challenge.kind === "team_total" ? null : [userId], now);
      }
    }
    const item: ChallengeItem = {
      id: challenge.id,
      name: challenge.name,
      description: challenge.description,
      charityName: challenge.charity_name as ChallengeItem["charityName"],
      kind: challenge.kind,
      target: challenge.target,
      dailyTarget: challenge.daily_target,
      startsOn: challenge.starts_on,
      endsOn: challenge.ends_on,
      scope: challenge.scope,
      groupId: challenge.group_id,
      joined: member !== null,
      progress,
      completedAt: completedAt === null ? null : new Date(completedAt).toISOString(),
    };
    return { item, mine };
  }

  /** Marks the walkers completed (a team's: every member), once; each gets the badge and word of it. */
  private async complete(challenge: ChallengeRow, userIds: string[] | null, now: number): Promise<void> {
    const completed = await this.deps.challenges.complete(challenge.id, userIds, now);
    for (const userId of completed) {
      await this.deps.badges.award([{ userId, badgeIds: [challengeBadgeId(challenge.id)] }], now);
      await this.deps.notifier.tell(
        {
          userId,
          kind: "challenge_completed",
          eventKey: challenge.id,
          title: "Challenge completed!",
          body:
            challenge.kind === "team_total"
              ? `Your team reached ${steps(challenge.target)} steps in "${isolated(challenge.name)}". Your certificate is ready.`
              : `You completed "${isolated(challenge.name)}". Your certificate is ready.`,
          url: `/challenges/${challenge.id}`,
        },
        now,
      );
    }
  }

  /** The challenge when the walker may see it: public, or of a group they are in; else 404. */
  private async visible(id: string, userId: string): Promise<ChallengeRow> {
    const challenge = await this.deps.challenges.find(id);
    if (!challenge) throw new NotFoundError(CHALLENGE_MESSAGES.notFound);
    if (challenge.scope === "group") {
      const joined =
        challenge.group_id === null ? undefined : await this.deps.groups.joinedAt(challenge.group_id, userId);
      if (joined === undefined) throw new NotFoundError(CHALLENGE_MESSAGES.notFound);
    }
    return challenge;
  }

  private async publicChallenge(id: string): Promise<ChallengeRow> {
    const challenge = await this.deps.challenges.find(id);
    if (challenge?.scope !== "public") throw new NotFoundError(CHALLENGE_MESSAGES.notFound);
    return challenge;
  }

  private newRow(
    input: ChallengeInput,
    scope: ChallengeScope,
    groupId: number | null,
    createdBy: string,
    now: number,
  ): ChallengeRow {
    checkInput(input, londonDay(now));
    return {
      id: randomUUID(),
      ...fieldsOf(input),
      scope,
      group_id: groupId,
      created_by: createdBy,
      created_at: now,
      updated_at: now,
    };
  }
}

function fieldsOf(input: ChallengeInput) {
  return {
    name: trimInvisible(input.name),
    description: trimInvisible(input.description),
    charity_name: input.charityName,
    kind: input.kind,
    target: input.target,
    daily_target: input.dailyTarget,
    starts_on: input.startsOn,
    ends_on: input.endsOn,
  };
}

/** An operator's change, for the audit log. */
function audit(
  operatorUserId: string,
  action: string,
  id: string,
  before: object | null,
  after: object | null,
  at: number,
): AuditEntry {
  return { operatorUserId, action, subject: `challenge:${id}`, before, after, at };
}

/** What the audit log keeps of a public challenge. */
function publicFields(row: ChallengeRow) {
  const {
    id: _id,
    created_at: _created,
    updated_at: _updated,
    created_by: _by,
    group_id: _group,
    ...fields
  } = row;
  return fields;
}

/** What the schema cannot say: real days, the period, the daily target's place, a target in days. */
function checkInput(input: ChallengeInput, today: DayString): void {
  if (!trimInvisible(input.name)) throw new BadRequestError("name must not be blank.");
  for (const field of ["startsOn", "endsOn"] as const) {
    if (!isCalendarDay(input[field])) throw new BadRequestError(`${field} must be a real date, YYYY-MM-DD.`);
  }
  if (input.startsOn < today) throw new BadRequestError(CHALLENGE_MESSAGES.startsInPast);
  checkPeriod(input.startsOn, input.endsOn, input);
}

function checkPeriod(startsOn: DayString, endsOn: DayString, input: ChallengeInput | null): void {
  if (endsOn < startsOn) throw new BadRequestError(CHALLENGE_MESSAGES.endsBeforeStart);
  if (daysBetween(startsOn, endsOn) + 1 > CHALLENGE_MAX_DAYS)
    throw new BadRequestError(CHALLENGE_MESSAGES.tooLong);
  if (!input) return;
  if (input.kind === "daily_target") {
    if (input.dailyTarget === null) throw new BadRequestError(CHALLENGE_MESSAGES.dailyTargetNeeded);
    if (input.target > challengeDays(input)) throw new BadRequestError(CHALLENGE_MESSAGES.daysTarget);
  } else if (input.dailyTarget !== null) {
    throw new BadRequestError(CHALLENGE_MESSAGES.dailyTargetOnlyForDaily);
  }
}
