import fp from "fastify-plugin";
import helmet from "helmet";
import { isHttps } from "../config.js";

/**
 * Security headers with a CSP the app works under (scripts and styles from this origin only), and
 * `Cache-Control: no-store` on every answer whose route set no caching of its own. The
 * helmet middleware is built once: @fastify/helmet builds it again for every request, which was a
 * twentieth of a step sync's CPU.
 */
export const securityHeadersPlugin = fp(
  async (app) => {
    const https = isHttps(app.config);
    const setHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // React and Radix set inline style attributes; no inline script is ever allowed.
          styleSrc: ["'self'", "'unsafe-inline'"],
          // Profile pictures come from the identity provider; step photos are shown as blob: URLs.
          imgSrc: ["'self'", "data:", "blob:", "https:"],
          connectSrc: ["'self'"],
          fontSrc: ["'self'"],
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: https ? [] : null,
        },
      },
      strictTransportSecurity: https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      crossOriginEmbedderPolicy: false,
    });
    app.addHook("onRequest", (request, reply, done) => {
      setHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
    });
    // An answer is stored by no cache unless its route chose a policy (the app's files, the shell):
    // API answers are a walker's own data, and a shared or later user of the browser must not get
    // them back from its HTTP cache. (The service worker's offline copies are kept apart, in Cache
    // Storage, and emptied at sign-out.)
    app.addHook("onSend", (_request, reply, payload, done) => {
      if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
      done(null, payload);
    });
  },
  { name: "security-headers", dependencies: ["config"] },
);
