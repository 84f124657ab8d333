import {
  type AuditLogEntry,
  type AuthUser,
  FAIR_PLAY_MESSAGES,
  type MonthDecision,
  OPERATOR_AUDIT_LOG_PATH,
  OPERATOR_REVIEW_WALKERS_PATH,
  OPERATOR_REVIEWS_PATH,
  operatorReviewMonthPath,
  operatorReviewPath,
  operatorReviewPhotoPath,
  REVIEW_REASON_MESSAGES,
  type ReviewItem,
  type WalkerReviewGroup,
} from "@charity-steps/shared-types";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http, type JsonBodyType } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import { useToastStore } from "../../../src/lib/toast-store";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { recordRequests, server } from "../../support/server";
import { testWalker } from "../../support/walker";

const operator: AuthUser = { ...testWalker, isOperator: true };
const FIRST = "6f1c9d2e-1111-4a2b-8c3d-000000000001";
const SECOND = "6f1c9d2e-2222-4a2b-8c3d-000000000002";

function reviewItem(overrides: Partial<ReviewItem>): ReviewItem {
  return {
    id: FIRST,
    kind: "manual",
    status: "pending",
    userId: "walker-1",
    walkerName: "Wendy Walker",
    walkerEmail: "wendy@example.org",
    date: "2026-11-20",
    steps: 12_000,
    note: "Hill walk, phone flat",
    reasons: [{ code: "capture-date-missing", message: REVIEW_REASON_MESSAGES["capture-date-missing"] }],
    createdAt: "2026-11-20T18:00:00.000Z",
    photoUrl: operatorReviewPhotoPath(FIRST),
    recentDays: [
      { date: "2026-11-19", steps: 6_100 },
      { date: "2026-11-20", steps: 18_000 },
    ],
    decisionReason: null,
    ...overrides,
  };
}

/**
 * The review API as the server answers it: the queue (a decided item leaves it), each decision
 * answered by the next of `answers` (or as the server would), and an audit log that grows by one
 * entry per decision.
 */
function stubReviewServer(queue: ReviewItem[], answers: [number, JsonBodyType][] = []) {
  const waiting = [...queue];
  const log: AuditLogEntry[] = [];
  server.use(
    signedInAs(operator),
    http.get(OPERATOR_REVIEWS_PATH, () => HttpResponse.json({ reviews: waiting, truncated: false })),
    http.post(operatorReviewPath(":id"), async ({ params, request }) => {
      const decided = waiting.find((item) => item.id === params.id);
      if (!decided) return HttpResponse.json({ message: "There is no such entry." }, { status: 404 });
      const answer = answers.shift();
      if (answer) return HttpResponse.json(answer[1], { status: answer[0] });
      const body = (await request.json()) as { decision: "approve" | "reject"; reason?: string };
      waiting.splice(waiting.indexOf(decided), 1);
      const after = {
        ...decided,
        status: body.decision === "approve" ? "approved" : "rejected",
        decisionReason: body.reason ?? null,
      };
      log.unshift({
        id: log.length + 1,
        at: "2026-11-21T10:00:00.000Z",
        operatorUserId: operator.id,
        operatorEmail: operator.email,
        action: `review.${body.decision}`,
        subject: `review:${decided.id}`,
        before: decided,
        after,
      });
      return HttpResponse.json(after);
    }),
    http.get(OPERATOR_AUDIT_LOG_PATH, () => HttpResponse.json({ entries: log, nextBefore: null })),
  );
  return { calls: recordRequests() };
}

afterEach(() => {
  useToastStore.setState({ current: null });
});

/** The first render loads the app's lazy chunks: slow while other suites run. */
const LOADED = { timeout: 10_000 };
const queueList = () =>
  screen.findByRole("list", { name: "Entries waiting for a check, oldest first" }, LOADED);

describe("the review queue", () => {
  it("shows each item with its photo, the walker's latest days and why it waits, oldest first", async () => {
    stubReviewServer([
      reviewItem({}),
      reviewItem({
        id: SECOND,
        walkerName: "Pat Pacer",
        kind: "pace",
        photoUrl: null,
        note: "",
        reasons: [{ code: "pace", message: REVIEW_REASON_MESSAGES.pace }],
      }),
    ]);
    renderApp("/operator");
    const list = await queueList();
    const [first, second] = within(list).getAllByRole("listitem", { name: /steps on/ }) as HTMLElement[];
    expect(within(first as HTMLElement).getByRole("heading").textContent).toBe(
      "Wendy Walker: 12,000 steps on Fri, 20 Nov 2026",
    );
    expect(
      within(first as HTMLElement).getByText(REVIEW_REASON_MESSAGES["capture-date-missing"]),
    ).toBeTruthy();
    expect(within(first as HTMLElement).getByText("Hill walk, phone flat")).toBeTruthy();
    const photo = within(first as HTMLElement).getByRole("img", {
      name: "Proof sent with Wendy Walker's entry",
    });
    expect(photo.getAttribute("src")).toBe(operatorReviewPhotoPath(FIRST));
    const days = within(first as HTMLElement).getByRole("list", {
      name: "Wendy Walker's latest days, oldest first",
    });
    expect(days.textContent).toContain("Thu 19 Nov 6,100");
    expect(days.textContent).toContain("Fri 20 Nov (this entry) 18,000");
    expect(within(second as HTMLElement).getByText(REVIEW_REASON_MESSAGES.pace)).toBeTruthy();
    expect(within(second as HTMLElement).queryByRole("img")).toBeNull();
  });

  it("approves an item: it leaves the queue, and the audit log shows the decision", async () => {
    const user = userEvent.setup();
    const { calls } = stubReviewServer([reviewItem({})]);
    renderApp("/operator");
    const list = await queueList();
    await user.click(within(list).getByRole("button", { name: "Approve" }));
    await screen.findByText("Nothing is waiting for a check.");
    expect(calls.find((call) => call.url === operatorReviewPath(FIRST))).toEqual({
      method: "POST",
      url: operatorReviewPath(FIRST),
      body: { decision: "approve" },
    });
    expect(useToastStore.getState().current).toMatchObject({ title: "Approved" });
    const log = await screen.findByRole("list", { name: "Operator actions, newest first" });
    await within(log).findByText("review.approve");
    // The item has gone: the focus is on the queue's heading, not lost with the item.
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Review queue" }));
  });

  it("rejects only with a reason, which it sends for the walker to read", async () => {
    const user = userEvent.setup();
    const { calls } = stubReviewServer([reviewItem({})]);
    renderApp("/operator");
    const list = await queueList();
    await user.click(within(list).getByRole("button", { name: "Reject" }));
    const reason = within(list).getByRole("textbox", { name: /Reason/ });
    expect(within(list).getByRole("alert").textContent).toBe(FAIR_PLAY_MESSAGES.reasonRequired);
    expect(reason.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(reason);
    expect(calls.some((call) => call.url === operatorReviewPath(FIRST))).toBe(false);

    await user.type(reason, "  The photo is of a different walk.  ");
    expect(within(list).queryByRole("alert")).toBeNull();
    await user.click(within(list).getByRole("button", { name: "Reject" }));
    await screen.findByText("Nothing is waiting for a check.");
    expect(calls.find((call) => call.url === operatorReviewPath(FIRST))?.body).toEqual({
      decision: "reject",
      reason: "The photo is of a different walk.",
    });
    expect(useToastStore.getState().current).toMatchObject({ title: "Rejected" });
    await within(await screen.findByRole("list", { name: "Operator actions, newest first" })).findByText(
      "review.reject",
    );
  });

  it("shows the server's refusal beside the item, and the queue as it now stands", async () => {
    const user = userEvent.setup();
    stubReviewServer([reviewItem({})], [[409, { message: FAIR_PLAY_MESSAGES.alreadyDecided }]]);
    renderApp("/operator");
    const list = await queueList();
    await user.click(within(list).getByRole("button", { name: "Approve" }));
    await waitFor(() =>
      expect(within(list).getByRole("alert").textContent).toBe(FAIR_PLAY_MESSAGES.alreadyDecided),
    );
  });
});

describe("what waits, by walker", () => {
  const WALKER_ID = "6f1c9d2e-3333-4a2b-8c3d-000000000003";
  const lena: WalkerReviewGroup = {
    userId: WALKER_ID,
    walkerName: "Lena Late",
    walkerEmail: "lena@example.org",
    month: "2026-11",
    pendingSteps: 11_000,
    days: [
      {
        date: "2026-11-24",
        countedSteps: 21_000,
        eligibleSteps: 10_000,
        pendingSteps: 11_000,
        late: true,
        reasons: [{ code: "late-day", message: REVIEW_REASON_MESSAGES["late-day"] }],
      },
    ],
  };

  it("shows each walker's month with its days and why, and approves the whole month in one decision", async () => {
    const user = userEvent.setup();
    let waiting = [lena];
    server.use(
      signedInAs(operator),
      http.get(OPERATOR_REVIEW_WALKERS_PATH, () =>
        HttpResponse.json({ walkers: waiting, page: 1, pageCount: 1 }),
      ),
      http.post(operatorReviewMonthPath(":userId", ":month"), () => {
        waiting = [];
        return HttpResponse.json({
          userId: WALKER_ID,
          month: "2026-11",
          status: "approved",
          manualEntries: 0,
          paceReviews: 0,
          days: 1,
          steps: 11_000,
        } satisfies MonthDecision);
      }),
    );
    const calls = recordRequests();
    renderApp("/operator");
    const list = await screen.findByRole(
      "list",
      { name: "Walkers with steps waiting, the most first" },
      LOADED,
    );
    const card = within(list).getByRole("listitem", { name: /Lena Late/ });
    expect(within(card).getByRole("heading").textContent).toBe(
      "Lena Late: 11,000 steps waiting in November 2026",
    );
    const days = within(card).getByRole("list", {
      name: "Lena Late's days in November 2026 that hold steps back",
    });
    expect(days.textContent).toContain("Tue 24 Nov");
    expect(days.textContent).toContain("21,000");
    expect(within(days).getByText(REVIEW_REASON_MESSAGES["late-day"])).toBeTruthy();

    // Turning down needs a reason; approving takes one if given.
    await user.click(within(card).getByRole("button", { name: "Turn down November 2026" }));
    expect(within(card).getByText(FAIR_PLAY_MESSAGES.reasonRequired)).toBeTruthy();
    await user.type(within(card).getByRole("textbox", { name: /Reason/ }), "Offline on a hill walk.");
    await user.click(within(card).getByRole("button", { name: "Approve November 2026" }));
    await screen.findByText("No walker has steps waiting for a check.");
    const decision = calls.find((call) => call.method === "POST");
    expect(decision).toEqual({
      method: "POST",
      url: operatorReviewMonthPath(WALKER_ID, "2026-11"),
      body: { decision: "approve", reason: "Offline on a hill walk." },
    });
  });
});
