import { setupServer } from "msw/node";
import { defaultHandlers } from "./handlers";

/**
 * The API as the tests' browser reaches it (Mock Service Worker, in Node): the default answers,
 * to which each test adds its own with `server.use(...)`; they are dropped after every test.
 */
export const server = setupServer(...defaultHandlers);

export interface SentRequest {
  method: string;
  /** The path and query, as the app asked for it: "/api/groups/12". */
  url: string;
  /** The JSON body, when the request had one. */
  body?: unknown;
}

/**
 * Every request the app sends from now until the end of the test, in order, each with its JSON
 * body once read. For tests that check which requests the app made, and with what.
 */
export function recordRequests(): SentRequest[] {
  const sent: SentRequest[] = [];
  server.events.on("request:start", ({ request }) => {
    const url = new URL(request.url);
    const entry: SentRequest = { method: request.method, url: url.pathname + url.search };
    sent.push(entry);
    if (request.headers.get("Content-Type")?.includes("application/json")) {
      void request
        .clone()
        .text()
        .then((text) => {
          if (text) entry.body = JSON.parse(text);
        });
    }
  });
  return sent;
}
