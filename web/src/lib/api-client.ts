import type { QueryFunction } from "@tanstack/react-query";

/**
 * Turns a non-OK answer into an Error whose message is `${status}: ${body or status text}`,
 * which is what screens show and what `isUnauthorizedError` looks for.
 */
async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const bodyText = await response.text().catch(() => "");
  throw new Error(`${response.status}: ${bodyText || response.statusText}`);
}

/**
 * Every call to our API sends the session cookie. A JSON content type and body go only with a body;
 * FormData (the manual-steps upload) is sent as multipart, its boundary set by the browser.
 */
export async function apiRequest(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init: RequestInit = { method, credentials: "include" };
  if (Object.keys(headers).length > 0) init.headers = headers;
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers = { ...headers, "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  await throwIfNotOk(response);
  return response;
}

export type UnauthorizedBehavior = "returnNull" | "throw";

/** GET on the query key's segments joined with "/", e.g. ["/api/groups", 7] → /api/groups/7. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const response = await fetch(queryKey.join("/"), { credentials: "include" });
    if (on401 === "returnNull" && response.status === 401) return null;
    await throwIfNotOk(response);
    return (await response.json()) as T;
  };
}

/** True for the errors `apiRequest` throws when the session has ended. */
export function isUnauthorizedError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Unauthorized|401/.test(message);
}

/** The server's `{ message }` inside an `apiRequest` error, or `fallback` when there is none. */
export function serverMessage(error: unknown, fallback: string): string {
  const text = error instanceof Error ? error.message : "";
  const body = text.replace(/^\d{3}: /, "");
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && "message" in parsed && typeof parsed.message === "string") {
      return parsed.message;
    }
  } catch {
    // Not JSON (a proxy's error page, a network failure): the fallback says it better.
  }
  return fallback;
}
