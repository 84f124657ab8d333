import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiRequest, getQueryFn, isUnauthorizedError, serverMessage } from "./api-client";

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response);
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

function runQuery<T>(queryKey: readonly unknown[], on401: "returnNull" | "throw") {
  return new QueryClient().fetchQuery({ queryKey, queryFn: getQueryFn<T>({ on401 }), retry: false });
}

afterEach(() => vi.unstubAllGlobals());

describe("apiRequest", () => {
  it("sends the session cookie and a JSON body with its content type", async () => {
    const fetchMock = stubFetch(Response.json({ ok: true }));
    await apiRequest("POST", "/api/groups", { name: "Morning walkers", description: "" });
    expect(fetchMock).toHaveBeenCalledWith("/api/groups", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Morning walkers", description: "" }),
    });
  });

  it("sends neither a body nor a content type when there is no body", async () => {
    const fetchMock = stubFetch(new Response(null, { status: 204 }));
    await apiRequest("POST", "/api/monthly-reset");
    expect(fetchMock).toHaveBeenCalledWith("/api/monthly-reset", { method: "POST", credentials: "include" });
  });

  it("sends a form as multipart, leaving the content type to the browser", async () => {
    const fetchMock = stubFetch(Response.json({}));
    const form = new FormData();
    form.append("steps", "1200");
    await apiRequest("POST", "/api/steps/add-manual-verified", form);
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe(form);
    expect(init?.headers).toBeUndefined();
  });

  it("adds the headers it is given, e.g. an Idempotency-Key", async () => {
    const fetchMock = stubFetch(Response.json({}));
    await apiRequest("POST", "/api/steps/add-manual-verified", new FormData(), {
      "Idempotency-Key": "k-123",
    });
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toEqual({ "Idempotency-Key": "k-123" });
  });

  it("reads the server's message out of a refusal, or falls back", () => {
    expect(serverMessage(new Error('413: {"message":"Please upload an image smaller than 5MB."}'), "x")).toBe(
      "Please upload an image smaller than 5MB.",
    );
    expect(serverMessage(new Error("502: Bad Gateway"), "Failed to add steps")).toBe("Failed to add steps");
    expect(serverMessage(new TypeError("Failed to fetch"), "Failed to add steps")).toBe(
      "Failed to add steps",
    );
  });

  it("fails with 'status: body' when the server refuses", async () => {
    stubFetch(new Response('{"message":"Group not found."}', { status: 404, statusText: "Not Found" }));
    await expect(apiRequest("GET", "/api/groups/9")).rejects.toThrow('404: {"message":"Group not found."}');
  });

  it("fails with 'status: status text' when the refusal has no body", async () => {
    stubFetch(new Response(null, { status: 503, statusText: "Service Unavailable" }));
    await expect(apiRequest("GET", "/api/groups")).rejects.toThrow("503: Service Unavailable");
  });
});

describe("the default query loader", () => {
  it("GETs the query key's segments joined with '/' and answers the JSON", async () => {
    const fetchMock = stubFetch(Response.json({ id: 7, name: "Lunch loop" }));
    await expect(runQuery(["/api/groups", 7], "returnNull")).resolves.toEqual({ id: 7, name: "Lunch loop" });
    expect(fetchMock).toHaveBeenCalledWith("/api/groups/7", { credentials: "include" });
  });

  it("answers null for 401 (signed out) instead of failing", async () => {
    stubFetch(new Response('{"message":"Sign in first."}', { status: 401, statusText: "Unauthorized" }));
    await expect(runQuery(["/api/auth/user"], "returnNull")).resolves.toBeNull();
  });

  it("fails on 401 when asked to", async () => {
    stubFetch(new Response("", { status: 401, statusText: "Unauthorized" }));
    await expect(runQuery(["/api/steps/monthly"], "throw")).rejects.toThrow("401: Unauthorized");
  });

  it("fails with 'status: body' on other refusals", async () => {
    stubFetch(new Response("database unavailable", { status: 500 }));
    await expect(runQuery(["/api/dashboard/stats"], "returnNull")).rejects.toThrow(
      "500: database unavailable",
    );
  });
});

describe("isUnauthorizedError", () => {
  it("recognises a 401 from the API and nothing else", () => {
    expect(isUnauthorizedError(new Error('401: {"message":"Sign in first."}'))).toBe(true);
    expect(isUnauthorizedError(new Error("403: Unauthorized to delete"))).toBe(true);
    expect(isUnauthorizedError(new Error("403: Forbidden"))).toBe(false);
    expect(isUnauthorizedError(new Error("500: Internal Server Error"))).toBe(false);
  });
});
