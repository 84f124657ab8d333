import {
  addMonths,
  countOf,
  ErrorResponse,
  FAIR_PLAY_MESSAGES,
  formatMonth,
  formatShortDay,
  isolated,
  londonMonth,
  MonthDecision,
  MonthDecisionParams,
  OPERATOR_REVIEW_WALKERS_PATH,
  OPERATOR_REVIEWS_PATH,
  REVIEW_QUEUE_MAX,
  REVIEW_WALKERS_PAGE_SIZE,
  ReviewDecisionRequest,
  ReviewItem,
  ReviewParams,
  ReviewQueue,
  sentenceCase,
  WalkerReviewQuery,
  WalkerReviewQueue,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { signedInUser } from "../../../auth/sessions.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../errors.js";
import type { NewNotification } from "../../../repositories/notifications.js";

/** The only types a stored photo can have (it was sniffed and re-encoded on the way in). */
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/gif"]);

/**
 * The operators' review queue: steps waiting for a check (a manual entry held when it was sent, or
 * a counter's steps above the pace), oldest first, each with why, its photo and its walker's latest
 * days; and the decision on each, with the reason its walker reads, written to the audit log.
 * Registered inside `operatorRoutes`, whose hook lets operators in and answers everyone else 404.
 */
export const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { reviews } = app.repositories;
  const refused = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse };

  app.get(OPERATOR_REVIEWS_PATH, { schema: { response: { 200: ReviewQueue, ...refused } } }, async () => {
    const waiting = await reviews.queue(REVIEW_QUEUE_MAX + 1);
    return { reviews: waiting.slice(0, REVIEW_QUEUE_MAX), truncated: waiting.length > REVIEW_QUEUE_MAX };
  });

  // The same, grouped by walker and month: last month's (until its draw, holds still matter) and
  // this month's.
  app.get(
    OPERATOR_REVIEW_WALKERS_PATH,
    { schema: { querystring: WalkerReviewQuery, response: { 200: WalkerReviewQueue, ...refused } } },
    async (request) => {
      const page = request.query.page ?? 1;
      const month = londonMonth();
      const { walkers, pageCount } = await reviews.walkersWaiting(
        [addMonths(month, -1), month],
        page,
        REVIEW_WALKERS_PAGE_SIZE,
      );
      return { walkers, page, pageCount };
    },
  );

  app.post(
    `${OPERATOR_REVIEW_WALKERS_PATH}/:userId/months/:month`,
    {
      schema: {
        params: MonthDecisionParams,
        body: ReviewDecisionRequest,
        response: { 200: MonthDecision, ...refused },
      },
    },
    async (request) => {
      const { decision } = request.body;
      const reason = request.body.reason?.trim() || null;
      if (decision === "reject" && reason === null)
        throw new BadRequestError(FAIR_PLAY_MESSAGES.reasonRequired);
      const { userId, month } = request.params;
      const outcome = await reviews.decideMonth(userId, month, decision, reason, signedInUser(request).id);
      if (!outcome) throw new NotFoundError(FAIR_PLAY_MESSAGES.nothingWaitingInMonth);
      await app.services.notifier.tell(monthReviewed(outcome.decided, outcome.decidedAt, reason));
      return outcome.decided;
    },
  );

  app.post(
    `${OPERATOR_REVIEWS_PATH}/:id`,
    {
      schema: {
        params: ReviewParams,
        body: ReviewDecisionRequest,
        response: { 200: ReviewItem, ...refused, 409: ErrorResponse },
      },
    },
    async (request) => {
      const { decision } = request.body;
      const reason = request.body.reason?.trim() || null;
      if (decision === "reject" && reason === null)
        throw new BadRequestError(FAIR_PLAY_MESSAGES.reasonRequired);
      const refusal = await reviews.decide(request.params.id, decision, reason, signedInUser(request).id);
      if (refusal === "not-found") throw new NotFoundError(FAIR_PLAY_MESSAGES.noSuchReview);
      if (refusal === "already-decided") throw new ConflictError(FAIR_PLAY_MESSAGES.alreadyDecided);
      const item = await reviews.find(request.params.id);
      if (!item) throw new NotFoundError(FAIR_PLAY_MESSAGES.noSuchReview);
      await app.services.notifier.tell(entryReviewed(item));
      return item;
    },
  );

  app.get(
    `${OPERATOR_REVIEWS_PATH}/:id/photo`,
    {
      schema: {
        params: ReviewParams,
        response: {
          200: Type.Unsafe<Buffer>(Type.String({ description: "JPEG, PNG, WebP or GIF" })),
          ...refused,
        },
      },
    },
    async (request, reply) => {
      const photo = await reviews.photo(request.params.id);
      if (!photo) throw new NotFoundError(FAIR_PLAY_MESSAGES.noSuchReview);
      // Served as the walker's own photo is: an image only, never stored, never run as a page.
      return reply
        .code(200)
        .header(
          "content-type",
          IMAGE_TYPES.has(photo.content_type) ? photo.content_type : "application/octet-stream",
        )
        .header("content-disposition", "inline")
        .header("cache-control", "no-store")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("x-content-type-options", "nosniff")
        .send(photo.data);
    },
  );
};

/**
 * The walker's word of an operator's decision on everything of a month that waited at once: their
 * manual entries, and the steps held for a check (above the pace, or by the day rules). A month is
 * decided once for what waits in it, so the moment of the decision names the event.
 */
function monthReviewed(decided: MonthDecision, decidedAt: number, reason: string | null): NewNotification {
  const count = decided.manualEntries;
  const byHand =
    count === 0
      ? null
      : count === 1
        ? "the steps you added by hand"
        : `the ${countOf(count, "entry", "entries")} of steps you added by hand`;
  const held = decided.paceReviews > 0 || decided.days > 0 ? "the steps held for a check" : null;
  const what = [byHand, held].filter(Boolean).join(" and ");
  const month = formatMonth(decided.month);
  const approved = decided.status === "approved";
  const subject = `${sentenceCase(what)} ${byHand ? "for" : "in"} ${month}`;
  return {
    userId: decided.userId,
    kind: "entry_reviewed",
    eventKey: `month:${decided.month}:${decidedAt}`,
    title: approved ? "Your steps were approved" : "Your steps were not approved",
    body: approved
      ? `${subject} were checked and count toward that month's prize entries.`
      : `${subject} were checked and do not count toward prize entries: ${reason === null ? "no reason was given" : isolated(reason)}`,
    url: "/prize-draw",
  };
}

/**
 * The walker's word of an operator's decision on one thing that waited (a manual entry, or a
 * counter's steps above the pace), with the reason for a refusal.
 */
function entryReviewed(item: ReviewItem): NewNotification {
  const day = formatShortDay(item.date);
  const steps =
    item.kind === "manual"
      ? `${countOf(item.steps, "step")} for ${day}`
      : `${countOf(item.steps, "step")} counted quickly on ${day}`;
  // "Your 1 step … was checked and counts", "Your 2 steps … were checked and count".
  const [were, count, doNot] = item.steps === 1 ? ["was", "counts", "does not"] : ["were", "count", "do not"];
  const approved = item.status === "approved";
  return {
    userId: item.userId,
    kind: "entry_reviewed",
    eventKey: item.id,
    title: approved ? "Your steps were approved" : "Your steps were not approved",
    body: approved
      ? `Your ${steps} ${were} checked and ${count} toward the prize entries for ${formatMonth(item.date.slice(0, 7))}.`
      : `Your ${steps} ${were} checked and ${doNot} count toward prize entries: ${item.decisionReason === null ? "no reason was given" : isolated(item.decisionReason)}`,
    url: "/prize-draw",
  };
}
