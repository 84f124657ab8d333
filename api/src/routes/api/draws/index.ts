import {
  addMonths,
  DRAW_MESSAGES,
  DRAW_MONTH_PATTERN,
  DRAW_OUTLIERS_MAX,
  DRAW_RULES_PATH,
  DRAW_RUN_MESSAGES,
  DRAW_TICKETS_CONTENT_TYPE,
  DRAWS_PATH,
  DrawList,
  DrawMonthParams,
  DrawOutliers,
  DrawResults,
  DrawRulesResponse,
  DrawRunConflictResponse,
  DrawTiersRequest,
  drawMinePath,
  drawResultsPath,
  drawTicketsPath,
  ErrorResponse,
  londonMonth,
  MY_PRIZES_PATH,
  MyDraw,
  MyPrize,
  MyPrizes,
  OperatorDraw,
  OperatorPrize,
  operatorDrawOutliersPath,
  operatorDrawPath,
  operatorDrawRunPath,
  operatorDrawTiersPath,
  operatorPrizeClaimPath,
  operatorPrizeRedrawPath,
  PrizeClaimRequest,
  PrizeIdParams,
  prizeClaimPath,
  RedrawResponse,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { signedInUser } from "../../../auth/sessions.js";
import { BadRequestError, NotFoundError } from "../../../errors.js";

const MONTH = new RegExp(DRAW_MONTH_PATTERN);
/** How many months back from this London month a draw can be looked up. */
export const DRAW_MONTHS_BACK = 12;
/** How many months ahead: next month's commitment can be published before it starts. */
export const DRAW_MONTHS_AHEAD = 1;

const monthIndex = (month: string) => {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  return year * 12 + monthNumber - 1;
};

/**
 * Whether a draw for `month` may be looked up (and so, on first ask, created) at `now`. The routes
 * are public, so this bound is what keeps anyone from filling the table: at most 14 months qualify.
 */
export function drawMonthAllowed(month: string, now = Date.now()): boolean {
  const offset = monthIndex(month) - monthIndex(londonMonth(now));
  return offset >= -DRAW_MONTHS_BACK && offset <= DRAW_MONTHS_AHEAD;
}

/** The month of a route's path, checked: 400 when malformed, 404 outside the months that have draws. */
function drawMonth(month: string): string {
  if (!MONTH.test(month)) throw new BadRequestError(DRAW_MESSAGES.badMonth);
  if (!drawMonthAllowed(month)) throw new NotFoundError(DRAW_MESSAGES.monthOutOfRange);
  return month;
}

const monthRefusals = { 400: ErrorResponse, 404: ErrorResponse };

/** Public: each month's draw, its ticket list once drawn, and where postal entries go. */
export const drawsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { draws } = app.services;

  app.get(DRAW_RULES_PATH, { schema: { response: { 200: DrawRulesResponse } } }, async (_request, reply) =>
    reply.header("cache-control", "no-cache").send({ postalEntryAddress: app.config.postalEntryAddress }),
  );

  app.get(DRAWS_PATH, { schema: { response: { 200: DrawList } } }, async (_request, reply) => {
    const draws = await app.services.draws.list(addMonths(londonMonth(), -DRAW_MONTHS_BACK));
    return reply.header("cache-control", "no-cache").send({ draws });
  });

  app.get(
    drawResultsPath(":month"),
    { schema: { params: DrawMonthParams, response: { 200: DrawResults, ...monthRefusals } } },
    async (request, reply) => {
      const results = await draws.results(drawMonth(request.params.month));
      // The status changes at the close and the draw, and claims add names: caches must ask again.
      return reply.header("cache-control", "no-cache").send(results);
    },
  );

  app.get(
    drawTicketsPath(":month"),
    {
      schema: {
        params: DrawMonthParams,
        response: {
          200: Type.String({ description: "The canonical ticket list, one id,holder per line" }),
          ...monthRefusals,
        },
      },
    },
    async (request, reply) => {
      const month = drawMonth(request.params.month);
      const text = await draws.ticketList(month);
      if (text === null) throw new NotFoundError(DRAW_MESSAGES.ticketsNotYet);
      return reply
        .type(DRAW_TICKETS_CONTENT_TYPE)
        .header("content-disposition", `inline; filename="charity-steps-draw-${month}-tickets.txt"`)
        .header("cache-control", "no-cache")
        .send(text);
    },
  );

  await app.register(walkerDrawRoutes);
  await app.register(operatorDrawRoutes);
};

/** A signed-in walker's own tickets and prizes, and their claims. */
const walkerDrawRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireUser);
  const { draws } = app.services;
  const refused = { 401: ErrorResponse, ...monthRefusals };

  app.get(
    drawMinePath(":month"),
    { schema: { params: DrawMonthParams, response: { 200: MyDraw, ...refused } } },
    async (request, reply) => {
      const mine = await draws.mine(signedInUser(request).id, drawMonth(request.params.month));
      return reply.header("cache-control", "private, no-store").send(mine);
    },
  );

  app.get(
    MY_PRIZES_PATH,
    { schema: { response: { 200: MyPrizes, 401: ErrorResponse } } },
    async (request, reply) => {
      const prizes = await draws.myPrizes(signedInUser(request).id);
      return reply.header("cache-control", "private, no-store").send({ prizes });
    },
  );

  app.post(
    prizeClaimPath(":id"),
    {
      schema: {
        params: PrizeIdParams,
        body: PrizeClaimRequest,
        response: { 200: MyPrize, ...refused, 409: ErrorResponse },
      },
    },
    async (request) => draws.claim(request.params.id, signedInUser(request).id, request.body),
  );
};

/** Operators: a month's draw with its winners, its tiers, running it, and redrawing a prize. */
const operatorDrawRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireOperator);
  const { draws } = app.services;
  const refused = { 401: ErrorResponse, ...monthRefusals };

  app.get(
    operatorDrawPath(":month"),
    { schema: { params: DrawMonthParams, response: { 200: OperatorDraw, ...refused } } },
    async (request) => draws.operatorView(drawMonth(request.params.month)),
  );

  // Before the close, the walkers whose tickets stand far above everyone else's, to look at first.
  app.get(
    operatorDrawOutliersPath(":month"),
    { schema: { params: DrawMonthParams, response: { 200: DrawOutliers, ...refused } } },
    async (request) => app.repositories.reviews.outliers(drawMonth(request.params.month), DRAW_OUTLIERS_MAX),
  );

  app.put(
    operatorDrawTiersPath(":month"),
    {
      schema: {
        params: DrawMonthParams,
        body: DrawTiersRequest,
        response: { 200: OperatorDraw, ...refused, 409: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) =>
      draws.setTiers(drawMonth(request.params.month), request.body.tiers, signedInUser(request).id),
  );

  app.post(
    operatorDrawRunPath(":month"),
    {
      schema: {
        params: DrawMonthParams,
        response: {
          200: DrawResults,
          ...refused,
          409: DrawRunConflictResponse,
          503: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { drawn, results } = await draws.run(drawMonth(request.params.month), signedInUser(request).id);
      if (!drawn) return reply.status(409).send({ message: DRAW_RUN_MESSAGES.alreadyDrawn, results });
      return results;
    },
  );

  app.post(
    operatorPrizeClaimPath(":id"),
    {
      schema: {
        params: PrizeIdParams,
        body: PrizeClaimRequest,
        response: { 200: OperatorPrize, ...refused, 409: ErrorResponse },
      },
    },
    async (request) => draws.recordPostalClaim(request.params.id, signedInUser(request).id, request.body),
  );

  app.post(
    operatorPrizeRedrawPath(":id"),
    { schema: { params: PrizeIdParams, response: { 200: RedrawResponse, ...refused, 409: ErrorResponse } } },
    async (request) => draws.redraw(request.params.id, signedInUser(request).id),
  );
};
