import { type CreatedStepImportKey, HEALTH_KEYS_PATH, type StepImportKey } from "@charity-steps/shared-types";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatLastUsed } from "../../../src/features/apple-health/format-last-used";
import { StepImportKeys } from "../../../src/features/apple-health/step-import-keys";
import { createQueryClient } from "../../../src/lib/query-client";
import { recordRequests, server } from "../../support/server";

const NOW = new Date("2026-11-24T18:30:00Z");
const phoneKey: StepImportKey = {
  id: "8f4c0c3e-1d1a-4f5e-9a4b-6f0f1f0c2a11",
  name: "Ana's iPhone",
  createdAt: "2026-11-01T10:00:00Z",
  lastUsedAt: "2026-11-24T18:02:00Z",
};
const oldKey: StepImportKey = {
  id: "2b9e7c55-7d3f-4c5a-8e21-0a6d3c9b4f22",
  name: "Old iPhone",
  createdAt: "2026-10-20T10:00:00Z",
  lastUsedAt: "2026-11-03T09:00:00Z",
};
const unusedKey: StepImportKey = {
  id: "5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e33",
  name: "Work iPhone",
  createdAt: "2026-11-20T10:00:00Z",
  lastUsedAt: null,
};

/** A server that holds keys as the real one does: list, create (201, secret once), delete (204). */
function stubKeyServer(initial: StepImportKey[], { createStatus }: { createStatus?: [number, string] } = {}) {
  let keys = [...initial];
  server.use(
    http.get(HEALTH_KEYS_PATH, () => HttpResponse.json(keys)),
    http.post(HEALTH_KEYS_PATH, async ({ request }) => {
      if (createStatus) return HttpResponse.json({ message: createStatus[1] }, { status: createStatus[0] });
      const { name } = (await request.json()) as { name: string };
      const created: CreatedStepImportKey = {
        id: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b44",
        name,
        key: "csk_s3cretValueShownOnce",
        createdAt: NOW.toISOString(),
      };
      keys = [
        ...keys,
        { id: created.id, name: created.name, createdAt: created.createdAt, lastUsedAt: null },
      ];
      return HttpResponse.json(created, { status: 201 });
    }),
    http.delete(`${HEALTH_KEYS_PATH}/:id`, ({ params }) => {
      keys = keys.filter((key) => key.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return recordRequests();
}

function renderKeys(onKeyCreated?: (key: CreatedStepImportKey) => void) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <StepImportKeys onKeyCreated={onKeyCreated} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  // Only Date is faked: the screen's own timers and testing-library's waits run as usual.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("when a key was last used", () => {
  it("says the London time for today, the day for earlier, and Never for an unused key", () => {
    expect(formatLastUsed("2026-11-24T18:02:00Z", NOW)).toBe("Last used 18:02 today");
    expect(formatLastUsed("2026-11-03T09:00:00Z", NOW)).toBe("Last used 3 Nov");
    expect(formatLastUsed("2025-12-30T09:00:00Z", NOW)).toBe("Last used 30 Dec 2025");
    expect(formatLastUsed(null, NOW)).toBe("Never used");
    // 23:30 UTC in summer is already the next day in London.
    expect(formatLastUsed("2026-07-01T23:30:00Z", new Date("2026-07-02T08:00:00Z"))).toBe(
      "Last used 00:30 today",
    );
  });
});

describe("the walker's step-import keys", () => {
  it("lists each key with when it was last used", async () => {
    stubKeyServer([phoneKey, oldKey, unusedKey]);
    renderKeys();
    const rows = await screen.findAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining("Last used 18:02 today"),
      expect.stringContaining("Last used 3 Nov"),
      expect.stringContaining("Never used"),
    ]);
    expect(within(rows[0] as HTMLElement).getByText("Ana's iPhone")).toBeTruthy();
  });

  it("creates a key named for the device and shows its secret once, with Copy", async () => {
    const user = userEvent.setup();
    const calls = stubKeyServer([]);
    const onKeyCreated = vi.fn();
    renderKeys(onKeyCreated);
    const name = await screen.findByLabelText("Name of the iPhone");
    expect((name as HTMLInputElement).value).toBe("My iPhone");
    await user.clear(name);
    await user.type(name, "Ana's iPhone");
    await user.click(screen.getByRole("button", { name: "Create key" }));

    expect((await screen.findByTestId("new-step-key")).textContent).toBe("csk_s3cretValueShownOnce");
    expect(screen.getByText(/You will not see this key again/)).toBeTruthy();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({ name: "Ana's iPhone" });
    expect(onKeyCreated).toHaveBeenCalledWith(expect.objectContaining({ key: "csk_s3cretValueShownOnce" }));

    await user.click(screen.getByRole("button", { name: "Copy the new key" }));
    expect(await navigator.clipboard.readText()).toBe("csk_s3cretValueShownOnce");

    // The list shows the new key by name only; once dismissed, the secret is nowhere on screen.
    const list = await screen.findByRole("list");
    expect(await within(list).findByText("Ana's iPhone")).toBeTruthy();
    expect(within(list).getByText(/Never used/)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: /Done, I've copied it/ }));
    expect(screen.queryByText("csk_s3cretValueShownOnce")).toBeNull();
    expect(screen.queryByTestId("new-step-key")).toBeNull();
  });

  it("asks before removing a key, keeps it when the walker says no, and drops it when they say yes", async () => {
    const user = userEvent.setup();
    const calls = stubKeyServer([phoneKey, oldKey]);
    renderKeys();
    await screen.findByText("Old iPhone");

    await user.click(screen.getByRole("button", { name: "Remove Old iPhone" }));
    const dialog = screen.getByRole("dialog", { name: 'Remove the key "Old iPhone"?' });
    expect(dialog.textContent).toContain("The Shortcut using it will stop sending steps.");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(calls.some((call) => call.method === "DELETE")).toBe(false);
    expect(screen.getByText("Old iPhone")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Remove Old iPhone" }));
    await user.click(
      within(screen.getByRole("dialog", { name: 'Remove the key "Old iPhone"?' })).getByRole("button", {
        name: "Remove key",
      }),
    );
    await waitFor(() => expect(screen.queryByText("Old iPhone")).toBeNull());
    expect(calls.filter((call) => call.method === "DELETE").map((call) => call.url)).toEqual([
      `${HEALTH_KEYS_PATH}/${oldKey.id}`,
    ]);
    expect(screen.getByText("Ana's iPhone")).toBeTruthy();
  });

  it("shows the server's message as text when a sixth key is refused", async () => {
    const user = userEvent.setup();
    const message = "You already have 5 step-import keys. Remove one before creating another.";
    stubKeyServer([phoneKey], { createStatus: [409, message] });
    renderKeys();
    await screen.findByText("Ana's iPhone");
    await user.click(screen.getByRole("button", { name: "Create key" }));
    expect((await screen.findByRole("alert")).textContent).toBe(message);
    expect(screen.queryByTestId("new-step-key")).toBeNull();
  });

  it("asks for a name instead of sending an empty one", async () => {
    const user = userEvent.setup();
    const calls = stubKeyServer([]);
    renderKeys();
    await user.clear(await screen.findByLabelText("Name of the iPhone"));
    await user.click(screen.getByRole("button", { name: "Create key" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/Give the key a name/);
    expect(calls.some((call) => call.method === "POST")).toBe(false);
  });
});
