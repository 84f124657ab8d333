import "fake-indexeddb/auto";
import { db } from "@charity-steps/client-store/db";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, beforeAll } from "vitest";
import { useToastStore } from "../src/lib/toast-store";
import { server } from "./support/server";

// Routes and forms load on demand: on a busy machine (CI runs the suites side by side) the first
// render of a lazy chunk can take longer than Testing Library's default second to appear.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no layout to scroll: each page's opening at its top is recorded instead (tests read it).
// (Files that run in Node, without a DOM, have no window.)
if (typeof window !== "undefined") window.scrollTo = (() => {}) as typeof window.scrollTo;

// A request no handler answers fails where it was sent (as with no network) and fails the test
// after it, even when the app copes with the failure: every request a test causes is one it meant.
const unanswered: string[] = [];
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      const url = new URL(request.url);
      unanswered.push(`${request.method} ${url.pathname}${url.search}`);
      print.error();
    },
  }),
);

afterEach(() => {
  cleanup();
  // What a test wrote into the page itself (not through render), such as the landing page's HTML.
  if (typeof document !== "undefined") document.body.replaceChildren();
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
  if (typeof document !== "undefined") delete document.documentElement.dataset.theme;
  useToastStore.setState({ current: null });
  server.resetHandlers();
  server.events.removeAllListeners();
  const missed = unanswered.splice(0);
  if (missed.length > 0) throw new Error(`No handler answered: ${missed.join(", ")}`);
});

// Files share a worker's modules, and with them the app's IndexedDB: steps one file queued would
// otherwise be sent during the next.
afterAll(async () => {
  server.close();
  await Promise.all(db.tables.map((table) => table.clear()));
});
