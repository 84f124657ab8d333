import { existsSync } from "node:fs";
import { join } from "node:path";
import { isServerPath } from "@charity-steps/shared-types";
import fastifyStatic from "@fastify/static";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

export const notFoundMessage = (method: string, path: string) => `There is nothing at ${method} ${path}.`;

const NO_CACHE_FILES = new Set([
  "index.html",
  "landing.html",
  "sw.js",
  "manifest.webmanifest",
  "registerSW.js",
]);

/**
 * Serves the built PWA from the same origin as the API: hashed assets cached for a year, the shell
 * and the service worker revalidated on every visit, and every app route answered with index.html.
 * Anything else unknown is a JSON 404.
 */
export const webAppPlugin = fp(
  async (app) => {
    const root = app.config.webDistDir;
    const hasApp = root !== null && existsSync(join(root, "index.html"));
    if (hasApp) {
      await app.register(fastifyStatic, {
        root,
        // web/dist holds .br and .gz copies made at build time: no compression work per request.
        preCompressed: true,
        cacheControl: false,
        setHeaders(res, path) {
          const file = path.slice(path.lastIndexOf("/") + 1);
          if (path.includes("/assets/")) res.header("cache-control", "public, max-age=31536000, immutable");
          else if (NO_CACHE_FILES.has(file)) res.header("cache-control", "no-cache");
          else res.header("cache-control", "public, max-age=3600");
        },
      });
    } else {
      app.log.warn({ webDistDir: root }, "no built web app found: serving the API only");
    }

    // A browser with no session is sent the landing page as the build drew it (landing.html): a
    // visitor's phone shows it without downloading or running the app. One with a session is sent
    // the app, which shows its walker's dashboard (or, if the session has lapsed, the same landing).
    const hasLandingPage = hasApp && root !== null && existsSync(join(root, "landing.html"));
    if (hasLandingPage && app.hasDecorator("sessionCookie")) {
      app.get("/", (request, reply) => {
        const page = app.sessionCookie.read(request) ? "index.html" : "landing.html";
        return reply.header("vary", "Cookie").sendFile(page);
      });
    }

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split("?")[0] ?? "/";
      const isNavigation =
        (request.method === "GET" || request.method === "HEAD") &&
        !isServerPath(path) &&
        (request.headers.accept ?? "").includes("text/html");
      if (hasApp && isNavigation) {
        return reply.header("cache-control", "no-cache").sendFile("index.html");
      }
      return reply.status(404).send({ message: notFoundMessage(request.method, path) });
    });
  },
  { name: "web-app", dependencies: ["config"] },
);
