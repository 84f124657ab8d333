import { describe, expect, it, vi } from "vitest";
import { ApiError, apiRequest } from "../src/api-client";

function answering(response: Response) {
  return vi.fn(async (_input: string, _init: RequestInit) => response);
}

describe("apiRequest", () => {
  it("sends the session cookie and a JSON body with its content type", async () => {
    const fetch = answering(Response.json({ ok: true }));
    await apiRequest("POST", "/api/groups", { name: "Morning walkers", description: "" }, {}, { fetch });
    expect(fetch).toHaveBeenCalledWith("/api/groups", {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Morning walkers", description: "" }),
    });
  });

  it("sends neither a body nor a content type when there is no body", async () => {
    const fetch = answering(new Response(null, { status: 204 }));
    await apiRequest("POST", "/api/monthly-reset", undefined, {}, { fetch });
    expect(fetch).toHaveBeenCalledWith("/api/monthly-reset", { method: "POST", credentials: "include" });
  });

  it("sends a form as multipart, leaving the content type to the browser", async () => {
    const fetch = answering(Response.json({}));
    const form = new FormData();
    form.append("steps", "1200");
    await apiRequest("POST", "/api/steps/add-manual-verified", form, {}, { fetch });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.body).toBe(form);
    expect(init?.headers).toBeUndefined();
  });

  it("adds the headers it is given, e.g. an Idempotency-Key, and the abort signal", async () => {
    const fetch = answering(Response.json({}));
    const signal = AbortSignal.timeout(1_000);
    await apiRequest("POST", "/api/steps/sync", { steps: 1 }, { "X-Device-Id": "d-1" }, { fetch, signal });
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({
      headers: { "X-Device-Id": "d-1", "Content-Type": "application/json" },
      signal,
    });
  });

  it("asks for a request that outlives the page only when told to", async () => {
    const fetch = answering(Response.json({}));
    await apiRequest("PUT", "/api/account/preferences", { theme: "dark" }, {}, { fetch, keepalive: true });
    await apiRequest("PUT", "/api/account/preferences", { theme: "light" }, {}, { fetch });
    expect(fetch.mock.calls.map(([, init]) => init.keepalive)).toEqual([true, undefined]);
  });

  it("throws an ApiError with the status and the API's message when the server refuses", async () => {
    const fetch = answering(
      new Response('{"message":"Group not found."}', { status: 404, statusText: "Not Found" }),
    );
    const error = await apiRequest("GET", "/api/groups/9", undefined, {}, { fetch }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, message: "Group not found.", fromApi: true });
    expect(String(error)).toBe("404: Group not found.");
  });

  it("takes the body's text, or the status text, when the refusal is not the API's JSON", async () => {
    const proxy = answering(new Response("Bad Gateway from the proxy", { status: 502 }));
    await expect(apiRequest("GET", "/api/groups", undefined, {}, { fetch: proxy })).rejects.toMatchObject({
      status: 502,
      message: "Bad Gateway from the proxy",
      fromApi: false,
    });
    const empty = answering(new Response(null, { status: 503, statusText: "Service Unavailable" }));
    const error = await apiRequest("GET", "/api/groups", undefined, {}, { fetch: empty }).catch((e) => e);
    expect(error.toString()).toBe("503: Service Unavailable");
  });

  it("lets a network failure through as it is, not as an ApiError", async () => {
    const fetch = vi.fn(async () => Promise.reject(new TypeError("Failed to fetch")));
    const error = await apiRequest("GET", "/api/groups", undefined, {}, { fetch }).catch((e) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(ApiError);
  });
});
