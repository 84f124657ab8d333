import {
  DRAW_CLAIM_MESSAGES,
  drawResultsPath,
  MY_PRIZES_PATH,
  type MyPrize,
  PRIZE_PUBLIC_NAME_MAX_CHARS,
  prizeClaimPath,
} from "@charity-steps/shared-types";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useToastStore } from "../../../src/lib/toast-store";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { recordRequests, server } from "../../support/server";
import { trackingStartWatched } from "../../support/tracking-start";
import { testWalker } from "../../support/walker";
import { drawnOctober, prize } from "./draw-fixtures";

const claimed: MyPrize = prize({
  status: "claimed",
  claimedAt: "2026-11-06T10:00:00.000Z",
  publicName: "A. Walker",
  county: "Devon",
});

async function fillIn(user: ReturnType<typeof userEvent.setup>, { over18 = true, name = "A. Walker" } = {}) {
  const box = await screen.findByLabelText("I am 18 or over");
  if (over18) await user.click(box);
  if (name) await user.type(screen.getByLabelText("Name to publish (e.g. J. Smith)"), name);
  await user.type(screen.getByLabelText("County"), "Devon");
  await user.type(screen.getByLabelText("Where should we send your prize?"), "1 High Street{Enter}Exeter");
}

describe("claiming a prize", () => {
  let trackingStarted: () => Promise<void>;
  beforeEach(() => {
    trackingStarted = trackingStartWatched();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-04T09:00:00Z"));
    server.use(signedInAs(testWalker));
  });
  afterEach(async () => {
    await trackingStarted();
    vi.useRealTimers();
  });

  it("says what is published, what is not, and by when to claim", async () => {
    server.use(http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: [prize()] })));
    renderApp("/prizes/prize-1/claim");
    expect(await screen.findByRole("heading", { level: 1, name: "Claim your Gold prize" })).toBeTruthy();
    expect(screen.getByTestId("claim-deadline").textContent).toBe(
      "Claim by 17 November 2026 at 12:00 (London time): 13 days left.",
    );
    expect(screen.getByText(/Your name and county, as you write them here, are published/)).toBeTruthy();
    expect(screen.getByText(/Your address is\s+never published/)).toBeTruthy();
    expect(screen.getByText(/Won with ticket/).textContent).toContain("T-0042");
  });

  it("asks for the age confirmation and each field before sending anything", async () => {
    const user = userEvent.setup();
    server.use(http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: [prize()] })));
    const calls = recordRequests();
    renderApp("/prizes/prize-1/claim");
    await fillIn(user, { over18: false });
    await user.click(screen.getByRole("button", { name: "Claim prize" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Confirm that you are 18 or over: prizes go only to adults.",
    );
    const over18 = screen.getByLabelText("I am 18 or over");
    expect(document.activeElement).toBe(over18);
    expect(over18.getAttribute("aria-invalid")).toBe("true");

    await user.click(over18);
    await user.clear(screen.getByLabelText("Name to publish (e.g. J. Smith)"));
    await user.type(screen.getByLabelText("Name to publish (e.g. J. Smith)"), "   ");
    await user.click(screen.getByRole("button", { name: "Claim prize" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      DRAW_CLAIM_MESSAGES.blankField("The name to publish"),
    );
    const name = screen.getByLabelText("Name to publish (e.g. J. Smith)");
    expect(document.activeElement).toBe(name);
    expect(name.getAttribute("aria-describedby")).toContain(screen.getByRole("alert").id);
    expect(calls.some((call) => call.url === prizeClaimPath("prize-1"))).toBe(false);
  });

  it("keeps a pasted name whole, counts it, and says it is too long before sending", async () => {
    const user = userEvent.setup();
    server.use(http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: [prize()] })));
    const calls = recordRequests();
    renderApp("/prizes/prize-1/claim");
    await fillIn(user, { name: "" });
    const name = screen.getByLabelText("Name to publish (e.g. J. Smith)") as HTMLInputElement;
    expect(screen.getByText(`${PRIZE_PUBLIC_NAME_MAX_CHARS} characters left`)).toBeTruthy();
    // A paste arrives as one change: nothing cuts it short without a word.
    fireEvent.change(name, { target: { value: "J".repeat(PRIZE_PUBLIC_NAME_MAX_CHARS + 1) } });
    expect(name.value).toHaveLength(PRIZE_PUBLIC_NAME_MAX_CHARS + 1);
    expect(screen.getByText("1 character too many")).toBeTruthy();
    expect(screen.getByText("The name to publish is 1 character too long.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Claim prize" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      `The name to publish must be at most ${PRIZE_PUBLIC_NAME_MAX_CHARS} characters.`,
    );
    expect(document.activeElement).toBe(name);
    expect(calls.some((call) => call.url === prizeClaimPath("prize-1"))).toBe(false);
  });

  it("sends the claim, says so, and the prize then shows Claimed here and on the prize page", async () => {
    const user = userEvent.setup();
    let prizes = [prize()];
    server.use(
      http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes })),
      http.post(prizeClaimPath("prize-1"), () => {
        prizes = [claimed];
        return HttpResponse.json(claimed);
      }),
      http.get(drawResultsPath("2026-10"), () => HttpResponse.json(drawnOctober)),
    );
    const calls = recordRequests();
    renderApp("/prizes/prize-1/claim");
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Claim prize" }));

    const status = await screen.findByTestId("claim-status");
    expect(status.textContent).toBe("Claimed");
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Claimed" }));
    expect(screen.getByText(/A\. Walker, Devon will be published with the results/)).toBeTruthy();
    expect(useToastStore.getState().current?.title).toBe("Prize claimed");
    expect(calls.find((call) => call.url === prizeClaimPath("prize-1"))?.body).toEqual({
      over18: true,
      publicName: "A. Walker",
      county: "Devon",
      deliveryAddress: "1 High Street\nExeter",
    });

    await user.click(screen.getByRole("link", { name: "Back to the prize draw" }));
    await waitFor(() => expect(screen.getByTestId("my-prize-status").textContent).toBe("Claimed"));
    expect(screen.getByText("Published as A. Walker, Devon.", { exact: false })).toBeTruthy();
  });

  it.each([
    [409, DRAW_CLAIM_MESSAGES.alreadyClaimed],
    [409, DRAW_CLAIM_MESSAGES.expired],
    [409, DRAW_CLAIM_MESSAGES.redrawn],
    [404, DRAW_CLAIM_MESSAGES.notYours],
  ])("a %i refusal is shown as the API words it: %s", async (status, message) => {
    const user = userEvent.setup();
    server.use(
      http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: [prize()] })),
      http.post(prizeClaimPath("prize-1"), () => HttpResponse.json({ message }, { status })),
    );
    renderApp("/prizes/prize-1/claim");
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Claim prize" }));
    expect((await screen.findByRole("alert")).textContent).toBe(message);
    expect(screen.getByRole("button", { name: "Claim prize" })).toBeTruthy();
  });

  it("a prize that is not the walker's says there is no such prize", async () => {
    server.use(http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: [prize()] })));
    renderApp("/prizes/someone-elses/claim");
    expect((await screen.findByRole("alert")).textContent).toBe(DRAW_CLAIM_MESSAGES.notYours);
    expect(screen.queryByLabelText("I am 18 or over")).toBeNull();
  });

  it("a prize past its claim shows why, with no form", async () => {
    server.use(http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: [prize({ status: "expired" })] })));
    renderApp("/prizes/prize-1/claim");
    expect((await screen.findByTestId("claim-status")).textContent).toBe("Expired");
    expect(screen.getByText(DRAW_CLAIM_MESSAGES.expired)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Claim prize" })).toBeNull();
  });
});
