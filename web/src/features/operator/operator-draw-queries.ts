import {
  type AlreadyDrawnResponse,
  type DrawResults,
  type DrawStatus,
  drawResultsPath,
  londonMonth,
  type OperatorDraw,
  operatorDrawPath,
} from "@charity-steps/shared-types";
import { queryOptions } from "@tanstack/react-query";
import { ApiError, apiRequest } from "../../lib/api-client";

export const OPERATOR_DRAW_KEY = ["/api/operator/draws"] as const;
export const DRAW_STATUS_KEY = ["operator", "draw-status"] as const;

/** How many months before this one the console offers: the server keeps draws for as many. */
export const DRAW_MONTHS_BACK = 12;

/** This London month and the `DRAW_MONTHS_BACK` before it, newest first. */
export function drawMonths(now: Date | number = Date.now()): string[] {
  const [year, month] = londonMonth(now).split("-").map(Number) as [number, number];
  return Array.from({ length: DRAW_MONTHS_BACK + 1 }, (_, back) => {
    const index = year * 12 + (month - 1) - back;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
  });
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
 * The month an operator most likely came for: the latest one that has closed and waits for its
 * draw. Months are asked newest first, and the search stops at the first drawn one: months are
 * drawn in order, and asking for a month makes its draw (its seed), which the scheduled job then
 * closes and runs, so months nobody needs are not asked for. The statuses seen come back too.
 */
export const waitingDrawQuery = (earlier: readonly string[]) =>
  queryOptions({
    queryKey: [...DRAW_STATUS_KEY, ...earlier],
    queryFn: async () => {
      const statuses: Record<string, DrawStatus> = {};
      for (const month of earlier) {
        const { status } = (await (await apiRequest("GET", drawResultsPath(month))).json()) as DrawResults;
        statuses[month] = status;
        if (status === "closed") return { waiting: month as string | null, statuses };
        if (status === "drawn") break;
      }
      return { waiting: null as string | null, statuses };
    },
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
