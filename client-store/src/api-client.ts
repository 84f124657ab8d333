/**
 * The one way the page and the service worker call our API: same origin, the session cookie, JSON
 * in and out. A refusal is thrown as an `ApiError` carrying the status, so callers decide on the
 * number (401 waits for sign-in, 429 waits, 422 is final) instead of reading it back out of text.
 */

import { clearApiCache } from "./api-cache";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** A non-2xx answer from our API. A failure to reach it at all is the fetch's own TypeError. */
export class ApiError extends Error {
  override readonly name = "ApiError";

  constructor(
    readonly status: number,
    /** The API's `{ message }`, else the body's text, else the status text. */
    message: string,
    /** True when `message` is the API's own `{ message }`, written for the walker to read. */
    readonly fromApi = false,
  ) {
    super(message);
  }

  /** `401: You are not signed in…`: the status, a colon and the message, as screens show it. */
  override toString(): string {
    return `${this.status}: ${this.message}`;
  }

  /** Reads a refusal's body into an ApiError; the body is consumed. */
  static async from(response: Response): Promise<ApiError> {
    const text = await response.text().catch(() => "");
    const message = jsonMessage(text);
    if (message !== null) return new ApiError(response.status, message, true);
    return new ApiError(response.status, text || response.statusText || `HTTP ${response.status}`);
  }
}

function jsonMessage(text: string): string | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && "message" in parsed) {
      const { message } = parsed as { message: unknown };
      if (typeof message === "string") return message;
    }
  } catch {
    // Not JSON (a proxy's error page): the caller uses the raw text.
  }
  return null;
}

export interface ApiRequestOptions {
  /** Stands in for the global fetch (tests, the bench). */
  fetch?: FetchLike | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Lets the request finish after the page has gone (a reload, a closed tab): for a small change
   * the walker expects kept the moment they made it. The browser takes 64 KB of such bodies at most.
   */
  keepalive?: boolean | undefined;
}

/**
 * Calls our API with the session cookie and resolves to the 2xx response; throws an `ApiError` for
 * any other answer. A JSON content type and body go only with a body; FormData (the manual-steps
 * upload) is sent as multipart, its boundary set by the browser.
 */
export async function apiRequest(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  { fetch: fetchFn = (input, init) => fetch(input, init), signal, keepalive }: ApiRequestOptions = {},
): Promise<Response> {
  const init: RequestInit = { method, credentials: "include" };
  if (keepalive) init.keepalive = true;
  if (Object.keys(headers).length > 0) init.headers = headers;
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers = { ...headers, "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  if (signal) init.signal = signal;
  const response = await fetchFn(url, init);
  // The session is over (signed out on another device, ended by a new password, expired): the
  // walker's API answers the service worker kept for offline go at once, whoever met the 401.
  if (response.status === 401) await clearApiCache();
  if (!response.ok) throw await ApiError.from(response);
  return response;
}
