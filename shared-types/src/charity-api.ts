import { type Static, Type } from "typebox";
import { CHARITY_NAMES } from "./charity.js";

export const CharityNameSchema = Type.Enum([...CHARITY_NAMES]);

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
