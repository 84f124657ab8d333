import {
  type AuditLogEntry,
  type AuthUser,
  OPERATOR_AUDIT_LOG_PATH,
  OPERATOR_MESSAGES,
  OPERATOR_POSTAL_ENTRIES_PATH,
  type PostalEntry,
} from "@charity-steps/shared-types";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http, type JsonBodyType } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useToastStore } from "../../../src/lib/toast-store";
import { signedInAs } from "../../support/handlers";
import { renderApp } from "../../support/render-app";
import { recordRequests, server } from "../../support/server";
import { testWalker } from "../../support/walker";

const operator: AuthUser = { ...testWalker, isOperator: true };
// The console opens on this London month, late in it: postal entries for it have closed.
const NOW = new Date("2026-11-28T12:00:00Z");
const month = "2026-11";

function postalEntry(overrides: Partial<PostalEntry>): PostalEntry {
  return {
    id: "entry-1",
    month,
    fullName: "Mary O'Brien",
    address: "1 High Street\nLittle Walking",
    email: null,
    receivedOn: `${month}-02`,
    createdAt: "2026-11-02T10:00:00.000Z",
    recordedBy: operator.id,
    possibleDuplicate: false,
    duplicateOf: null,
    ...overrides,
  };
}

function auditEntry(id: number, entry: PostalEntry): AuditLogEntry {
  return {
    id,
    at: "2026-11-02T10:00:00.000Z",
    operatorUserId: operator.id,
    operatorEmail: operator.email,
    action: "postal_entry.create",
    subject: `postal_entry:${entry.id}`,
    before: null,
    after: entry,
  };
}

/**
 * The operator API as the server answers it: the month's entries, the audit log in pages of
 * `pageSize`, and each POST answered by the next of `posts` (a created entry joins the list).
 */
function stubOperatorServer(user: AuthUser, posts: [number, JsonBodyType][] = [], log: AuditLogEntry[] = []) {
  const entries: PostalEntry[] = [];
  server.use(
    signedInAs(user),
    http.get(OPERATOR_POSTAL_ENTRIES_PATH, ({ request }) => {
      const asked = new URL(request.url).searchParams.get("month");
      return HttpResponse.json({
        month: asked,
        entries: entries.filter((e) => e.month === asked),
        truncated: false,
      });
    }),
    http.post(OPERATOR_POSTAL_ENTRIES_PATH, () => {
      const [status, answer] = posts.shift() ?? [500, { message: "no answer set" }];
      if (status === 201) entries.push(answer as PostalEntry);
      return HttpResponse.json(answer, { status });
    }),
    http.get(OPERATOR_AUDIT_LOG_PATH, ({ request }) => {
      const before = new URL(request.url).searchParams.get("before");
      const older = log.filter((entry) => before === null || entry.id < Number(before));
      const page = older.slice(0, 2);
      return HttpResponse.json({
        entries: page,
        nextBefore: older.length > 2 ? (page.at(-1)?.id ?? null) : null,
      });
    }),
  );
  return { calls: recordRequests() };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  useToastStore.setState({ current: null });
});

describe("the operator console", () => {
  it("is the 404 page for a walker who is not an operator, and asks nothing of the operator API", async () => {
    const { calls } = stubOperatorServer(testWalker);
    renderApp("/operator");
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeTruthy();
    expect(screen.queryByText("Operator console")).toBeNull();
    expect(calls.some((call) => call.url.startsWith("/api/operator"))).toBe(false);
  });

  it("records a postal entry, shows the server's refusal, and flags a duplicate in the list", async () => {
    const user = userEvent.setup();
    const first = postalEntry({});
    const duplicate = postalEntry({ id: "entry-2", possibleDuplicate: true, duplicateOf: "entry-1" });
    const { calls } = stubOperatorServer(operator, [
      [422, { message: OPERATOR_MESSAGES.receivedAfterClose }],
      [201, first],
      [201, duplicate],
    ]);
    renderApp("/operator");
    const form = await screen.findByRole("form", { name: "Record a postal entry" });
    // On the 28th this month's postal entries have closed: the form opens on next month's draw.
    const drawMonth = within(form).getByLabelText("Draw month") as HTMLInputElement;
    expect(drawMonth.value).toBe("2026-12");
    fireEvent.change(drawMonth, { target: { value: month } });

    await user.type(within(form).getByLabelText("Full name"), "Mary O'Brien");
    await user.type(within(form).getByLabelText("Address"), "1 High Street{Enter}Little Walking");
    const received = within(form).getByLabelText("Date received");
    // A date box takes its value whole (typed key by key, jsdom empties it at each partial date).
    fireEvent.change(received, { target: { value: `${month}-26` } });
    await user.click(within(form).getByRole("button", { name: "Record entry" }));
    expect((await within(form).findByRole("alert")).textContent).toBe(OPERATOR_MESSAGES.receivedAfterClose);
    expect(calls.find((call) => call.url === OPERATOR_POSTAL_ENTRIES_PATH)?.body).toEqual({
      month,
      fullName: "Mary O'Brien",
      address: "1 High Street\nLittle Walking",
      receivedOn: `${month}-26`,
    });

    fireEvent.change(received, { target: { value: `${month}-02` } });
    await user.click(within(form).getByRole("button", { name: "Record entry" }));
    const list = await screen.findByRole("list", { name: `Postal entries for ${month}` });
    await within(list).findByText("Mary O'Brien");
    expect(within(form).queryByRole("alert")).toBeNull();

    await user.type(within(form).getByLabelText("Full name"), "mary obrien");
    await user.type(within(form).getByLabelText("Address"), "1 High Street");
    await user.click(within(form).getByRole("button", { name: "Record entry" }));
    expect(await within(list).findByText(/Possible duplicate of #1/)).toBeTruthy();
    await waitFor(() => expect(useToastStore.getState().current?.title).toBe("Recorded: possible duplicate"));
  });

  it("shows the entries of the month chosen in the form", async () => {
    const { calls } = stubOperatorServer(operator);
    renderApp("/operator");
    const form = await screen.findByRole("form", { name: "Record a postal entry" });
    await screen.findByText("No postal entries recorded for 2026-12.");
    fireEvent.change(within(form).getByLabelText("Draw month"), { target: { value: "2026-01" } });
    await screen.findByText("No postal entries recorded for 2026-01.");
    expect(calls.some((call) => call.url === `${OPERATOR_POSTAL_ENTRIES_PATH}?month=2026-01`)).toBe(true);
  });

  it("shows the audit log newest first, with Load older for the earlier pages", async () => {
    const user = userEvent.setup();
    const log = [3, 2, 1].map((id) =>
      auditEntry(id, postalEntry({ id: `entry-${id}`, fullName: `Entrant ${id}` })),
    );
    stubOperatorServer(operator, [], log);
    renderApp("/operator");
    const actions = await screen.findByRole("list", { name: "Operator actions, newest first" });
    await within(actions).findByText("on postal_entry:entry-3");
    expect(within(actions).getAllByRole("listitem")).toHaveLength(2);
    expect(within(actions).getAllByText(new RegExp(operator.email ?? "-"))).toHaveLength(2);
    await user.click(screen.getByRole("button", { name: "Load older" }));
    await within(actions).findByText("on postal_entry:entry-1");
    expect(
      within(actions)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringContaining("entry-3"),
      expect.stringContaining("entry-2"),
      expect.stringContaining("entry-1"),
    ]);
    expect(screen.queryByRole("button", { name: "Load older" })).toBeNull();
    expect(within(actions).getAllByText(/"fullName": "Entrant 1"/)).toHaveLength(1);
  });

  it("is linked from the Account page for operators only", async () => {
    stubOperatorServer(operator);
    const { unmount } = renderApp("/account");
    const link = await screen.findByRole("link", { name: "Operator console" });
    expect(link.getAttribute("href")).toBe("/operator");
    unmount();
    stubOperatorServer(testWalker);
    renderApp("/account");
    await screen.findByRole("heading", { name: "Account" });
    expect(screen.queryByRole("link", { name: "Operator console" })).toBeNull();
  });
});
