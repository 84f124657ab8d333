/**
 * The paths the server answers itself: the API, the built-in identity provider and its sign-in
 * pages. The server never serves the app shell for them, and the service worker never answers a
 * navigation to one of them (e.g. /api/login) from its cache: it must reach the network.
 */
export const SERVER_PATH_PREFIXES = ["/api", "/oidc", "/auth"] as const;

/** The same prefixes as whole path segments, so that "/apis" or "/authors" stay app routes. */
export const SERVER_PATH_PATTERNS: readonly RegExp[] = SERVER_PATH_PREFIXES.map(
  (prefix) => new RegExp(`^${prefix}(/|$)`),
);

export function isServerPath(pathname: string): boolean {
  return SERVER_PATH_PATTERNS.some((pattern) => pattern.test(pathname));
}

/** A group's join link, `/groups/join/{CODE}` (an app route): its page offers "Join {name}". */
export const GROUP_JOIN_LINK_PREFIX = "/groups/join/";
export function groupJoinLink(origin: string, joinCode: string): string {
  return `${origin}${GROUP_JOIN_LINK_PREFIX}${joinCode}`;
}
