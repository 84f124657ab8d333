import {
  ACCOUNT_SESSIONS_PATH,
  type AccountSession,
  END_OTHER_SESSIONS_PATH,
} from "@charity-steps/shared-types";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SignedInDevices } from "../../../src/features/account/signed-in-devices";
import { createQueryClient } from "../../../src/lib/query-client";
import { useToastStore } from "../../../src/lib/toast-store";
import { recordRequests, server } from "../../support/server";

const NOW = new Date("2026-11-24T18:30:00Z");
const thisLaptop: AccountSession = {
  id: "0b7f3c2e-1d1a-4f5e-9a4b-6f0f1f0c2a11",
  browser: "Chrome on Linux",
  createdAt: "2026-11-01T10:00:00Z",
  lastSeenAt: "2026-11-24T18:28:00Z",
  current: true,
};
const phone: AccountSession = {
  id: "2b9e7c55-7d3f-4c5a-8e21-0a6d3c9b4f22",
  browser: "Safari on iOS",
  createdAt: "2026-10-20T10:00:00Z",
  lastSeenAt: "2026-11-24T08:02:00Z",
  current: false,
};
const oldTablet: AccountSession = {
  id: "5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e33",
  browser: "Chrome on Android",
  createdAt: "2026-09-02T10:00:00Z",
  lastSeenAt: "2026-11-03T09:00:00Z",
  current: false,
};

/** The server's device list as the real one keeps it: DELETE one (204), end the others ({ended}). */
function stubServer(initial: AccountSession[], { failEnd = false } = {}) {
  let sessions = [...initial];
  server.use(
    http.get(ACCOUNT_SESSIONS_PATH, () => HttpResponse.json(sessions)),
    http.post(END_OTHER_SESSIONS_PATH, () => {
      const ended = sessions.filter((session) => !session.current).length;
      sessions = sessions.filter((session) => session.current);
      return HttpResponse.json({ ended });
    }),
    http.delete(`${ACCOUNT_SESSIONS_PATH}/:id`, ({ params }) => {
      if (failEnd) return HttpResponse.json({ message: "The server is busy." }, { status: 503 });
      sessions = sessions.filter((session) => session.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return recordRequests();
}

function renderDevices() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <SignedInDevices />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  useToastStore.setState({ current: null });
});

const rows = () => screen.getAllByRole("listitem").map((item) => item.textContent);

describe("Signed-in devices", () => {
  it("lists each device with when it was last used, this one first, marked and without an End button", async () => {
    // The server lists the most recently used first; this device is still shown at the top.
    stubServer([phone, thisLaptop, oldTablet]);
    renderDevices();
    await screen.findByText("Safari on iOS");
    expect(rows()).toEqual([
      "Chrome on LinuxThis deviceLast used 18:28 today · signed in 1 Nov",
      "Safari on iOSLast used 08:02 today · signed in 20 OctEnd",
      "Chrome on AndroidLast used 3 Nov · signed in 2 SeptEnd",
    ]);
    const [mine] = screen.getAllByRole("listitem");
    expect(within(mine as HTMLElement).queryByRole("button")).toBeNull();
    expect(screen.getAllByRole("button", { name: /^End / })).toHaveLength(2);
  });

  it("ends one device and says so", async () => {
    const user = userEvent.setup();
    const calls = stubServer([thisLaptop, phone, oldTablet]);
    renderDevices();
    await user.click(await screen.findByRole("button", { name: "End Safari on iOS, last used 08:02 today" }));
    await waitFor(() => expect(screen.queryByText("Safari on iOS")).toBeNull());
    expect(calls).toContainEqual({ method: "DELETE", url: `${ACCOUNT_SESSIONS_PATH}/${phone.id}` });
    expect(useToastStore.getState().current).toMatchObject({
      title: "Signed out",
      description: "Safari on iOS is no longer signed in.",
    });
    expect(screen.getByText("Chrome on Android")).toBeTruthy();
  });

  it("signs out everywhere else, leaving only this device", async () => {
    const user = userEvent.setup();
    const calls = stubServer([thisLaptop, phone, oldTablet]);
    renderDevices();
    await user.click(await screen.findByRole("button", { name: "Sign out everywhere else" }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(calls).toContainEqual({ method: "POST", url: END_OTHER_SESSIONS_PATH });
    expect(useToastStore.getState().current?.description).toBe("2 other devices were signed out.");
    expect(screen.queryByRole("button", { name: "Sign out everywhere else" })).toBeNull();
  });

  it("offers no sign-out everywhere else when this is the only device", async () => {
    stubServer([thisLaptop]);
    renderDevices();
    await screen.findByText("This device");
    expect(screen.queryByRole("button", { name: "Sign out everywhere else" })).toBeNull();
  });

  it("shows the server's refusal and keeps the device listed", async () => {
    const user = userEvent.setup();
    stubServer([thisLaptop, phone], { failEnd: true });
    renderDevices();
    await user.click(await screen.findByRole("button", { name: /^End Safari on iOS/ }));
    await waitFor(() =>
      expect(useToastStore.getState().current).toMatchObject({
        title: "Error",
        description: "The server is busy.",
        variant: "destructive",
      }),
    );
    expect(screen.getByText("Safari on iOS")).toBeTruthy();
  });
});
