import { QueryObserver } from "@tanstack/react-query";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { keepReadsOnceControlled, type WorkerContainer } from "../../src/lib/offline-copies";
import { createQueryClient } from "../../src/lib/query-client";
import { DASHBOARD_STATS_KEY } from "../../src/lib/step-queries";
import { server } from "../support/server";

const GROUPS_KEY = ["/api/groups"] as const;

/** A page's service worker container: `controller` null until a worker takes the page. */
function container(controller: ServiceWorker | null) {
  const events = new EventTarget();
  const page: WorkerContainer = { controller, addEventListener: events.addEventListener.bind(events) };
  return { page, takeControl: () => events.dispatchEvent(new Event("controllerchange")) };
}

/**
 * How many times each path was asked for: the dashboard answers its n-th request with n hundred
 * steps (the first waits for `answerFirst` when `holdFirst`), and the groups fail.
 */
function countedAnswers({ holdFirst = false } = {}) {
  const asked = new Map<string, number>();
  const count = (path: string) => {
    asked.set(path, (asked.get(path) ?? 0) + 1);
    return asked.get(path) ?? 0;
  };
  let answerFirst = () => {};
  const first = new Promise<void>((resolve) => {
    answerFirst = resolve;
  });
  server.use(
    http.get("/api/dashboard/stats", async () => {
      const n = count("/api/dashboard/stats");
      if (holdFirst && n === 1) await first;
      return HttpResponse.json({ monthSteps: n * 100 });
    }),
    http.get("/api/groups", () => {
      count("/api/groups");
      return HttpResponse.json({ message: "Something went wrong" }, { status: 500 });
    }),
  );
  return { asked: (path: string) => asked.get(path) ?? 0, answerFirst };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("keepReadsOnceControlled", () => {
  it("asks again, once, for the API reads the page made before a worker took it", async () => {
    const { asked } = countedAnswers();
    const client = createQueryClient();
    const { page, takeControl } = container(null);
    keepReadsOnceControlled(client, page);
    await client.prefetchQuery({ queryKey: DASHBOARD_STATS_KEY });
    await client.prefetchQuery({ queryKey: GROUPS_KEY });

    takeControl();
    await vi.waitFor(() => expect(asked("/api/dashboard/stats")).toBe(2));
    takeControl();
    await settle();

    expect(asked("/api/dashboard/stats")).toBe(2);
    // The second answer is the worker's to keep: the page shows what it had.
    expect(client.getQueryData(DASHBOARD_STATS_KEY)).toEqual({ monthSteps: 100 });
    // A read that failed waits for the signal.
    expect(asked("/api/groups")).toBe(1);
  });

  it("asks again through the worker for a read still on its way when the worker takes the page", async () => {
    const { asked, answerFirst } = countedAnswers({ holdFirst: true });
    const client = createQueryClient();
    const { page, takeControl } = container(null);
    keepReadsOnceControlled(client, page);
    // A screen showing the numbers: it asks for them as it mounts.
    const unsubscribe = new QueryObserver(client, { queryKey: DASHBOARD_STATS_KEY }).subscribe(() => {});
    await vi.waitFor(() => expect(asked("/api/dashboard/stats")).toBe(1));

    takeControl();
    await vi.waitFor(() => expect(asked("/api/dashboard/stats")).toBe(2));
    answerFirst();
    // The screen shows its own read's answer when it comes.
    await vi.waitFor(() => expect(client.getQueryData(DASHBOARD_STATS_KEY)).toEqual({ monthSteps: 100 }));
    await settle();

    expect(asked("/api/dashboard/stats")).toBe(2);
    unsubscribe();
  });

  it("asks again only for reads made at their key's path: one with its own address is left alone", async () => {
    const { asked } = countedAnswers();
    const wrongAddress = vi.fn();
    server.use(http.get("/api/operator/draws/2026-11/outliers", wrongAddress));
    const client = createQueryClient();
    const { page, takeControl } = container(null);
    keepReadsOnceControlled(client, page);
    await client.prefetchQuery({ queryKey: DASHBOARD_STATS_KEY });
    // An operator's read whose key names no address of its own (its function asks elsewhere).
    await client.prefetchQuery({
      queryKey: ["/api/operator/draws", "2026-11", "outliers"],
      queryFn: async () => (await fetch("/api/dashboard/stats")).json(),
    });

    takeControl();
    await vi.waitFor(() => expect(asked("/api/dashboard/stats")).toBe(3));
    await settle();

    expect(asked("/api/dashboard/stats")).toBe(3);
    expect(wrongAddress).not.toHaveBeenCalled();
  });

  it("asks for nothing again on a page a worker already controlled", async () => {
    const { asked } = countedAnswers();
    const client = createQueryClient();
    const { page, takeControl } = container({} as ServiceWorker);
    keepReadsOnceControlled(client, page);
    await client.prefetchQuery({ queryKey: DASHBOARD_STATS_KEY });

    takeControl();
    await settle();

    expect(asked("/api/dashboard/stats")).toBe(1);
  });
});
