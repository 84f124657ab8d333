import { type Static, Type } from "typebox";
import { CHARITY_NAMES } from "./charity.js";
import { formatNumber } from "./numbers.js";

export const CharityNameSchema = Type.Enum(CHARITY_NAMES);

export const CharitySelectRequest = Type.Object(
  { charityName: CharityNameSchema },
  { additionalProperties: false },
);
export type CharitySelectRequest = Static<typeof CharitySelectRequest>;

/** `GET /api/charity/selection` and the answer to `POST /api/charity/select`. */
export const CharitySelectionResponse = Type.Object({
  charityName: Type.Union([CharityNameSchema, Type.Null()]),
});
export type CharitySelectionResponse = Static<typeof CharitySelectionResponse>;

/** `GET /api/charity/current`: the chosen charity with what the charity page shows of it. */
export const CurrentCharityResponse = Type.Object({
  charity: Type.Union([
    Type.Object({ name: CharityNameSchema, description: Type.String(), focus: Type.String() }),
    Type.Null(),
  ]),
});
export type CurrentCharityResponse = Static<typeof CurrentCharityResponse>;

/** `GET /api/revenue/current`: this month's subscription revenue and its 50/30/20 split, in pounds. */
export const RevenueResponse = Type.Object({
  month: Type.String(),
  totalRevenue: Type.Number(),
  charityShare: Type.Number(),
  prizePool: Type.Number(),
  operatingShare: Type.Number(),
});
export type RevenueResponse = Static<typeof RevenueResponse>;

/** `GET /api/subscription/status`: the free beta, and the plan the app-store launch will offer. */
export const SubscriptionStatusResponse = Type.Object({
  status: Type.Literal("beta"),
  free: Type.Boolean(),
  futurePlan: Type.Object({
    monthlyPricePence: Type.Integer(),
    freeTrialDays: Type.Integer(),
    shares: Type.Array(Type.Object({ share: Type.String(), percent: Type.Integer(), pence: Type.Integer() })),
  }),
});
export type SubscriptionStatusResponse = Static<typeof SubscriptionStatusResponse>;

/** Public: how many walkers counted steps for each charity in a month, and how many steps. */
export const CHARITY_IMPACT_PATH = "/api/charities/impact";
/** How long the impact's answer may be kept, by the server and by browsers. */
export const CHARITY_IMPACT_CACHE_SECONDS = 60;

export const CharityImpactQuery = Type.Object(
  {
    month: Type.Optional(
      Type.String({
        pattern: "^[0-9]{4}-(0[1-9]|1[0-2])$",
        errorMessage: "must be a month, YYYY-MM",
        description: "YYYY-MM; London's current month when absent",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CharityImpactQuery = Static<typeof CharityImpactQuery>;

export const CharityImpactResponse = Type.Object({
  month: Type.String(),
  /** All three charities, always, in the order the app lists them. Nobody is named. */
  items: Type.Array(
    Type.Object({
      charityName: CharityNameSchema,
      /** Walkers supporting the charity now who counted steps in the month. */
      walkers: Type.Integer(),
      /** Their counted steps in the month. */
      steps: Type.Integer(),
    }),
  ),
});
export type CharityImpactResponse = Static<typeof CharityImpactResponse>;

/** "1,204 walkers, 38.2 million steps for Cancer Research UK this month". */
export function charityImpactText(item: { charityName: string; walkers: number; steps: number }): string {
  const walkers = `${formatNumber(item.walkers)} ${item.walkers === 1 ? "walker" : "walkers"}`;
  const steps =
    item.steps >= 1_000_000
      ? `${formatNumber(Math.floor(item.steps / 100_000) / 10)} million steps`
      : `${formatNumber(item.steps)} ${item.steps === 1 ? "step" : "steps"}`;
  return `${walkers}, ${steps} for ${item.charityName} this month`;
}
