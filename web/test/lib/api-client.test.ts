import { QueryClient } from "@tanstack/react-query";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import {
  ApiError,
  apiRequest,
  getQueryFn,
  isUnauthorizedError,
  serverMessage,
} from "../../src/lib/api-client";
import { server } from "../support/server";

// How apiRequest itself sends and fails is tested with it, in client-store.

/** The request as it left the page, read by the handler that answered it. */
interface Sent {
  method: string;
  url: string;
  credentials: RequestCredentials;
  contentType: string | null;
  body: string;
}

/** `path` (any method) answers `response`; returns what was sent to it. */
function answer(path: string, response: () => Response): Sent[] {
  const sent: Sent[] = [];
  server.use(
    http.all(path, async ({ request }) => {
      sent.push({
        method: request.method,
        url: new URL(request.url).pathname,
        credentials: request.credentials,
        contentType: request.headers.get("Content-Type"),
        body: await request.text(),
      });
      return response();
    }),
  );
  return sent;
}

function runQuery<T>(queryKey: readonly unknown[], on401: "returnNull" | "throw") {
  return new QueryClient().fetchQuery({ queryKey, queryFn: getQueryFn<T>({ on401 }), retry: false });
}

describe("apiRequest on the page", () => {
  it("uses the browser's fetch with the session cookie", async () => {
    const sent = answer("/api/groups/join", () => HttpResponse.json({ ok: true }));
    await apiRequest("POST", "/api/groups/join", { joinCode: "ABC123" });
    expect(sent).toEqual([
      {
        method: "POST",
        url: "/api/groups/join",
        credentials: "include",
        contentType: "application/json",
        body: JSON.stringify({ joinCode: "ABC123" }),
      },
    ]);
  });

  it("reads the server's message out of a refusal, or falls back", async () => {
    answer(
      "/api/steps/add-manual-verified",
      () => new HttpResponse('{"message":"Please upload an image smaller than 5MB."}', { status: 413 }),
    );
    const tooLarge = await apiRequest("POST", "/api/steps/add-manual-verified").catch((e) => e);
    expect(serverMessage(tooLarge, "x")).toBe("Please upload an image smaller than 5MB.");
    expect(String(tooLarge)).toBe("413: Please upload an image smaller than 5MB.");
    expect(serverMessage(new ApiError(502, "Bad Gateway"), "Failed to add steps")).toBe(
      "Failed to add steps",
    );
    expect(serverMessage(new TypeError("Failed to fetch"), "Failed to add steps")).toBe(
      "Failed to add steps",
    );
  });
});

describe("the default query loader", () => {
  it("GETs the query key's segments joined with '/' and answers the JSON", async () => {
    const sent = answer("/api/groups/7", () => HttpResponse.json({ id: 7, name: "Lunch loop" }));
    await expect(runQuery(["/api/groups", 7], "returnNull")).resolves.toEqual({ id: 7, name: "Lunch loop" });
    expect(sent).toEqual([
      { method: "GET", url: "/api/groups/7", credentials: "include", contentType: null, body: "" },
    ]);
  });

  it("answers null for 401 (signed out) instead of failing", async () => {
    answer(
      "/api/auth/user",
      () => new HttpResponse('{"message":"Sign in first."}', { status: 401, statusText: "Unauthorized" }),
    );
    await expect(runQuery(["/api/auth/user"], "returnNull")).resolves.toBeNull();
  });

  it("fails on 401 when asked to, with an ApiError that reads 'status: status text'", async () => {
    answer("/api/steps/monthly", () => new HttpResponse("", { status: 401, statusText: "Unauthorized" }));
    const error: unknown = await runQuery(["/api/steps/monthly"], "throw").catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(String(error)).toBe("401: Unauthorized");
  });

  it("fails with 'status: body' on other refusals", async () => {
    answer("/api/dashboard/stats", () => new HttpResponse("database unavailable", { status: 500 }));
    const error = await runQuery(["/api/dashboard/stats"], "returnNull").catch((e) => e);
    expect(error).toMatchObject({ status: 500, message: "database unavailable" });
    expect(String(error)).toBe("500: database unavailable");
  });
});

describe("isUnauthorizedError", () => {
  it("recognises a 401 from the API by its status, and nothing else", () => {
    expect(isUnauthorizedError(new ApiError(401, "Sign in first.", true))).toBe(true);
    expect(isUnauthorizedError(new ApiError(403, "Only the group's admin can delete it.", true))).toBe(false);
    expect(isUnauthorizedError(new ApiError(500, "Internal Server Error"))).toBe(false);
    // Text that merely mentions 401 is not a 401.
    expect(isUnauthorizedError(new Error("401: Unauthorized"))).toBe(false);
  });
});
