import fp from "fastify-plugin";
import { ForbiddenError } from "../errors.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const PROTECTED_PREFIXES = ["/api/", "/auth/"];

export const CROSS_SITE_MESSAGE = "This request came from another site and was refused.";

/**
 * CSRF defence for every state-changing request to the API and the sign-in pages:
 * browsers say where a request comes from in Sec-Fetch-Site (or, older ones, in Origin); anything
 * but this origin is refused. Clients that send neither header are not browsers and carry no
 * walker's cookies by accident.
 */
export const csrfPlugin = fp(
  async (app) => {
    const ownOrigin = new URL(app.config.publicUrl).origin;
    app.addHook("onRequest", async (request) => {
      if (SAFE_METHODS.has(request.method)) return;
      if (!PROTECTED_PREFIXES.some((prefix) => request.url.startsWith(prefix))) return;
      const site = request.headers["sec-fetch-site"];
      if (site !== undefined) {
        if (site === "same-origin" || site === "none") return;
        throw new ForbiddenError(CROSS_SITE_MESSAGE);
      }
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== ownOrigin) throw new ForbiddenError(CROSS_SITE_MESSAGE);
    });
  },
  { name: "csrf", dependencies: ["config"] },
);
