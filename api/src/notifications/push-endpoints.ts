/**
 * Whether a push subscription's endpoint may be posted to. The endpoint is an address the walker's
 * browser (or anyone holding a session) hands us, so the server would post to anything: only the
 * listed push services are allowed. An `https://*.host` origin allows any subdomain of the host
 * (Windows' push service has one per region); `http:` only where an `http:` origin is listed, as a
 * test's push receiver on 127.0.0.1 is.
 */
export function isAllowedPushEndpoint(endpoint: string, allowedOrigins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username !== "" || url.password !== "") return false;
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  const origin = url.origin.toLowerCase();
  return allowedOrigins.some((allowed) => {
    const wildcard = /^https:\/\/\*\.(.+)$/.exec(allowed);
    if (!wildcard) return origin === allowed;
    const suffix = `.${wildcard[1]}`;
    return url.protocol === "https:" && url.host.endsWith(suffix) && url.host.length > suffix.length;
  });
}

/** What a walker may see of an endpoint: its push service's origin, never the capability in full. */
export function endpointOrigin(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return "";
  }
}
