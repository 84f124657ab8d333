import {
  type AlreadyDrawnResponse,
  DRAWS_PATH,
  type DrawList,
  type DrawStatus,
  type DrawSummary,
  londonMonth,
  type OperatorDraw,
  operatorDrawPath,
} from "@charity-steps/shared-types";
import { queryOptions } from "@tanstack/react-query";
import { ApiError, apiRequest } from "../../lib/api-client";

export const OPERATOR_DRAW_KEY = ["/api/operator/draws"] as const;
/**
 * The list of draws, under the prize page's key: one cache entry for both, so both must keep the
 * server's `DrawList` there as it came.
 */
export const DRAW_LIST_KEY = [DRAWS_PATH] as const;

/** The months that have a draw and where each stands, in one request. */
export const drawListQuery = () =>
  queryOptions({
    queryKey: DRAW_LIST_KEY,
    queryFn: async () => (await (await apiRequest("GET", DRAWS_PATH)).json()) as DrawList,
  });

/** The list's months, newest first whatever order the server sent. */
export const newestFirst = (list: DrawList): DrawSummary[] =>
  [...list.draws].sort((a, b) => b.month.localeCompare(a.month));

/**
 * The month an operator most likely came for: the newest that has closed and waits for its draw,
 * else the newest drawn (its prizes to follow), else this month (its tiers to set). `draws` is
 * newest first.
 */
export function defaultDrawMonth(draws: readonly DrawSummary[], thisMonth: string = londonMonth()): string {
  const newest = (status: DrawStatus) => draws.find((draw) => draw.status === status)?.month;
  return newest("closed") ?? newest("drawn") ?? thisMonth;
}

const monthNameFormat = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

/** "October 2026" for "2026-10". */
export function monthName(month: string): string {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  return monthNameFormat.format(Date.UTC(year, monthNumber - 1, 1));
}

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
