import {
  AUDIT_LOG_PAGE_DEFAULT,
  type AuditLogPage,
  OPERATOR_AUDIT_LOG_PATH,
  OPERATOR_POSTAL_ENTRIES_PATH,
  OPERATOR_REVIEW_WALKERS_PATH,
  OPERATOR_REVIEWS_PATH,
  type PostalEntryList,
  type ReviewQueue,
  type WalkerReviewQueue,
} from "@charity-steps/shared-types";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";

export const POSTAL_ENTRIES_KEY = [OPERATOR_POSTAL_ENTRIES_PATH] as const;
export const AUDIT_LOG_KEY = [OPERATOR_AUDIT_LOG_PATH] as const;
export const WALKER_REVIEWS_KEY = [OPERATOR_REVIEW_WALKERS_PATH] as const;
export const REVIEW_QUEUE_KEY = [OPERATOR_REVIEWS_PATH] as const;

/** What waits for a check, oldest first. */
export const reviewQueueQuery = queryOptions({
  queryKey: REVIEW_QUEUE_KEY,
  queryFn: async () => (await (await apiRequest("GET", OPERATOR_REVIEWS_PATH)).json()) as ReviewQueue,
});

/** What waits, grouped by walker and month, the most first: one page. */
export const walkerReviewsQuery = (page: number) =>
  queryOptions({
    queryKey: [...WALKER_REVIEWS_KEY, page],
    queryFn: async () =>
      (await (
        await apiRequest("GET", `${OPERATOR_REVIEW_WALKERS_PATH}?page=${page}`)
      ).json()) as WalkerReviewQueue,
  });

/** The month's postal entries, in the order they were recorded. */
export const postalEntriesQuery = (month: string) =>
  queryOptions({
    queryKey: [...POSTAL_ENTRIES_KEY, month],
    queryFn: async () =>
      (await (
        await apiRequest("GET", `${OPERATOR_POSTAL_ENTRIES_PATH}?month=${encodeURIComponent(month)}`)
      ).json()) as PostalEntryList,
  });

/** The audit log, newest first, a page at a time ("Load older" asks for the next). */
export const auditLogQuery = infiniteQueryOptions({
  queryKey: AUDIT_LOG_KEY,
  initialPageParam: null as number | null,
  queryFn: async ({ pageParam }) => {
    const before = pageParam === null ? "" : `&before=${pageParam}`;
    const url = `${OPERATOR_AUDIT_LOG_PATH}?limit=${AUDIT_LOG_PAGE_DEFAULT}${before}`;
    return (await (await apiRequest("GET", url)).json()) as AuditLogPage;
  },
  getNextPageParam: (page) => page.nextBefore,
});
