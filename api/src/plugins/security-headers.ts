import fp from "fastify-plugin";
import helmet from "helmet";
import { isHttps } from "../config.js";

/**
 * Security headers with a CSP the app works under (scripts and styles from this origin only). The
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
  },
  { name: "security-headers", dependencies: ["config"] },
);
