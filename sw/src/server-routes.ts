/**
 * Paths the server answers itself: the API, the built-in identity provider and its sign-in pages.
 * A navigation to one of them (e.g. /api/login) must reach the network, never the app shell.
 * Mirrors the API's own list in api/src/plugins/web-app.ts.
 */
export const SERVER_ROUTE_DENYLIST: readonly RegExp[] = [/^\/api(\/|$)/, /^\/oidc(\/|$)/, /^\/auth(\/|$)/];

export function isServerRoute(pathname: string): boolean {
  return SERVER_ROUTE_DENYLIST.some((pattern) => pattern.test(pathname));
}
