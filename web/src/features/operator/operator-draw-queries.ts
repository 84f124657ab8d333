import {
  type AlreadyDrawnResponse,
  type DrawOutliers,
  type DrawStatus,
  type DrawSummary,
  londonMonth,
  type OperatorDraw,
  operatorDrawOutliersPath,
  operatorDrawPath,
} from "@charity-steps/shared-types";
import { queryOptions } from "@tanstack/react-query";
import { ApiError, apiRequest } from "../../lib/api-client";

export const OPERATOR_DRAW_KEY = ["/api/operator/draws"] as const;

/**
 * The month an operator most likely came for: the newest that has closed and waits for its draw,
 * else the newest drawn (its prizes to follow), else this month (its tiers to set). `draws` is
 * newest first.
 */
export function defaultDrawMonth(draws: readonly DrawSummary[], thisMonth: string = londonMonth()): string {
  const newest = (status: DrawStatus) => draws.find((draw) => draw.status === status)?.month;
  return newest("closed") ?? newest("drawn") ?? thisMonth;
}

/** Before the close: the walkers whose tickets are above the month's 99th percentile. */
export const drawOutliersQuery = (month: string) =>
  queryOptions({
    queryKey: [...OPERATOR_DRAW_KEY, month, "outliers"],
    queryFn: async () =>
      (await (await apiRequest("GET", operatorDrawOutliersPath(month))).json()) as DrawOutliers,
  });

/** A month's draw as operators see it: the public results, ticket counts and every winner's details. */
export const operatorDrawQuery = (month: string) =>
  queryOptions({
    queryKey: [...OPERATOR_DRAW_KEY, month],
    queryFn: async () => (await (await apiRequest("GET", operatorDrawPath(month))).json()) as OperatorDraw,
  });

/**
 * A refusal whose body carries more than a message: a run asked for twice answers the results of
 * the one draw there is, which `ApiError` alone would drop.
 */
export class DrawRunRefusal extends ApiError {
  constructor(
    error: ApiError,
    readonly alreadyDrawn: AlreadyDrawnResponse | null,
  ) {
    super(error.status, error.message, error.fromApi);
  }
}

function isAlreadyDrawn(body: unknown): body is AlreadyDrawnResponse {
  if (typeof body !== "object" || body === null) return false;
  const { message, results } = body as Partial<AlreadyDrawnResponse>;
  return (
    typeof message === "string" &&
    typeof results === "object" &&
    results !== null &&
    typeof results.month === "string" &&
    results.status === "drawn"
  );
}

/** POSTs `url` and answers its JSON; a 409 that carries the draw's results is thrown with them. */
export async function postForDraw<T>(url: string): Promise<T> {
  let refusalBody: unknown = null;
  try {
    const response = await apiRequest(
      "POST",
      url,
      undefined,
      {},
      {
        fetch: async (input, init) => {
          const answer = await fetch(input, init);
          if (answer.status === 409)
            refusalBody = await answer
              .clone()
              .json()
              .catch(() => null);
          return answer;
        },
      },
    );
    return (await response.json()) as T;
  } catch (error) {
    if (error instanceof ApiError) {
      throw new DrawRunRefusal(error, isAlreadyDrawn(refusalBody) ? refusalBody : null);
    }
    throw error;
  }
}
