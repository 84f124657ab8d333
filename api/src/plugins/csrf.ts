import fp from "fastify-plugin";
import { ForbiddenError } from "../errors.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_MESSAGE = "This request came from another site and was refused.";

/**
 * True when a browser says the request was made by a page of another origin: another site, or a
 * sibling origin on the same site (`same-site`, which still carries SameSite=Lax cookies). Browsers
 * say where a request comes from in Sec-Fetch-Site (or, older ones, only in Origin); `none` is a
 * request the user made themselves (typed, bookmarked). A client that sends neither header is not a
 * browser and carries no walker's cookies by accident.
 */
export function isFromAnotherOrigin(headers: Record<string, unknown>, ownOrigin: string): boolean {
  const site = headers["sec-fetch-site"];
  if (site !== undefined) return site !== "same-origin" && site !== "none";
  const origin = headers.origin;
  return origin !== undefined && origin !== ownOrigin;
}

/**
 * A link's navigation came from a page of another origin (a GET, which carries no Origin). Browsers
 * without Sec-Fetch-Site send the linking page's origin as Referer (unless it hides it), so that is
 * asked too.
 */
export function isFromAnotherSite(headers: Record<string, unknown>, ownOrigin: string): boolean {
  if (isFromAnotherOrigin(headers, ownOrigin)) return true;
  const referer = headers.referer;
  if (headers["sec-fetch-site"] !== undefined || typeof referer !== "string") return false;
  return URL.canParse(referer) && new URL(referer).origin !== ownOrigin;
}

/**
 * CSRF defence: every state-changing request, whatever its path, is refused when a browser made it
 * for a page of another origin. It is decided on the method alone, not on the URL's text: the router
 * decodes `/%61pi/...` to `/api/...`, so a check on the raw path could be walked around.
 */
export const csrfPlugin = fp(
  async (app) => {
    const ownOrigin = new URL(app.config.publicUrl).origin;
    app.addHook("onRequest", async (request) => {
      if (SAFE_METHODS.has(request.method)) return;
      if (isFromAnotherOrigin(request.headers, ownOrigin)) throw new ForbiddenError(CROSS_SITE_MESSAGE);
    });
  },
  { name: "csrf", dependencies: ["config"] },
);
