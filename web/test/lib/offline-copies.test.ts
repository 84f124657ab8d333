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

/** How many times each path was asked for, the dashboard answering and the groups failing. */
function countedAnswers() {
  const asked = new Map<string, number>();
  const count = (path: string) => asked.set(path, (asked.get(path) ?? 0) + 1);
  server.use(
    http.get("/api/dashboard/stats", () => {
      count("/api/dashboard/stats");
      return HttpResponse.json({ monthSteps: 4_200 });
    }),
    http.get("/api/groups", () => {
      count("/api/groups");
      return HttpResponse.json({ message: "Something went wrong" }, { status: 500 });
    }),
  );
  return (path: string) => asked.get(path) ?? 0;
}

describe("keepReadsOnceControlled", () => {
  it("asks again, once, for what the page read before a worker took it, leaving what failed alone", async () => {
    const asked = countedAnswers();
    const client = createQueryClient();
    const { page, takeControl } = container(null);
    keepReadsOnceControlled(client, page);
    await client.prefetchQuery({ queryKey: DASHBOARD_STATS_KEY });
    await client.prefetchQuery({ queryKey: GROUPS_KEY });
    expect([asked("/api/dashboard/stats"), asked("/api/groups")]).toEqual([1, 1]);

    takeControl();
    await vi.waitFor(() => expect(asked("/api/dashboard/stats")).toBe(2));
    takeControl();
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(asked("/api/dashboard/stats")).toBe(2);
    expect(asked("/api/groups")).toBe(1);
    expect(client.getQueryData(DASHBOARD_STATS_KEY)).toEqual({ monthSteps: 4_200 });
  });

  it("asks for nothing again on a page a worker already controlled: a new version reloads it", async () => {
    const asked = countedAnswers();
    const client = createQueryClient();
    const { page, takeControl } = container({} as ServiceWorker);
    keepReadsOnceControlled(client, page);
    await client.prefetchQuery({ queryKey: DASHBOARD_STATS_KEY });

    takeControl();
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(asked("/api/dashboard/stats")).toBe(1);
  });

  it("does nothing in a browser without service workers (as this test's browser is)", async () => {
    const asked = countedAnswers();
    const client = createQueryClient();
    keepReadsOnceControlled(client);
    await client.prefetchQuery({ queryKey: DASHBOARD_STATS_KEY });
    expect(asked("/api/dashboard/stats")).toBe(1);
  });
});
