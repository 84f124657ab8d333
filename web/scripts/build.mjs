// Builds the PWA into web/dist in two passes, so that the dashboard's own code is one file.
//
// Left to itself, the bundler splits the modules the dashboard shares with other screens by which
// screens share each one: the signed-in dashboard loaded a score of files under 1 KB, and a phone's
// browser fetches a few at a time, a round trip each. Which modules are the dashboard's alone is
// only known once tree-shaking has run (the shared-types and icon barrels name every module, while
// each page keeps only what it uses), so the first pass, kept in memory, finds where every module
// lands on its own; the second puts every module of the dashboard's chunks that neither the app's
// entry nor the landing page loads into one chunk. The landing page's files stay as they were.
// Last, the landing page is drawn into landing.html (below).
import { readFileSync, writeFileSync } from "node:fs";
import { build, createServer } from "vite";

const DASHBOARD = "/src/app/routes/dashboard-page.tsx";
const LANDING = "/src/features/landing/landing-page.tsx";

/** The chunks the app's entry and the landing page load, and those the dashboard loads. */
function chunksOf(result) {
  const chunks = [result]
    .flat()
    .flatMap((output) => output.output)
    .filter((file) => file.type === "chunk");
  const byFileName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const screen = (suffix) => {
    const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(suffix));
    if (!chunk) throw new Error(`The build has no chunk for ${suffix}`);
    return chunk;
  };
  // The chunks given, and every chunk they load before they run.
  const loadedWith = (...start) => {
    const seen = new Set();
    for (const next = [...start]; next.length > 0; ) {
      const chunk = next.pop();
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      for (const fileName of chunk.imports) next.push(byFileName.get(fileName));
    }
    return seen;
  };
  return {
    apart: loadedWith(screen(LANDING), ...chunks.filter((chunk) => chunk.isEntry)),
    dashboard: () => loadedWith(screen(DASHBOARD)),
  };
}

const modulesOf = (chunks) => [...chunks].flatMap((chunk) => chunk.moduleIds).sort();

// WEB_MINIFY=off keeps the code's own names, for reading a CPU profile of a page's load.
const minify = process.env.WEB_MINIFY !== "off";

const first = chunksOf(await build({ logLevel: "warn", build: { write: false, minify } }));
const dashboardModules = new Set(
  modulesOf([...first.dashboard()].filter((chunk) => !first.apart.has(chunk))),
);

const second = chunksOf(
  await build({
    build: {
      minify,
      rollupOptions: {
        output: {
          codeSplitting: {
            groups: [
              {
                name: "dashboard",
                test: (id) => dashboardModules.has(id),
                // The modules it uses from the entry's and the landing page's chunks stay there;
                // those chunks load none of the dashboard's, so no two chunks wait for each other.
                includeDependenciesRecursively: false,
              },
            ],
          },
        },
      },
    },
  }),
);

// The landing page must load exactly what it loaded on its own: nothing of the dashboard's.
if (modulesOf(second.apart).join("\n") !== modulesOf(first.apart).join("\n")) {
  throw new Error("Grouping the dashboard's modules changed what the landing page loads");
}

// The landing page as HTML, for the server to send a browser with no session (api's web-app
// plugin): drawn now by the app's own routes and components, with the app's styles, and with a
// script of its own (src/landing.ts: the theme, this month's numbers) instead of the app's, so
// that a visitor's phone shows it without downloading or running the app. The app's service
// worker does not precache it: it serves the app to those who have it.
const landingScript = [await build({ mode: "landing-page", logLevel: "warn", build: { minify } })]
  .flat()
  .flatMap((output) => output.output)
  .find((file) => file.type === "chunk" && file.isEntry);
if (!landingScript) throw new Error("The landing page's script was not built");

const renderer = await createServer({
  appType: "custom",
  logLevel: "warn",
  server: { middlewareMode: true, hmr: false, ws: false },
});
let markup;
try {
  const { renderLandingPage } = await renderer.ssrLoadModule("/src/app/landing-document.tsx");
  markup = await renderLandingPage();
} finally {
  await renderer.close();
}

const appPage = readFileSync("dist/index.html", "utf8");
const landingPage = appPage
  // The app's scripts and their preloads give way to the landing page's one.
  .replace(/\s*<script type="module"[^>]*><\/script>/g, "")
  .replace(/\s*<link rel="modulepreload"[^>]*>/g, "")
  .replace(
    "</head>",
    `  <script type="module" crossorigin src="/${landingScript.fileName}"></script>\n  </head>`,
  )
  .replace('<div id="root"></div>', `<div id="root">${markup}</div>`)
  // The page reads and works without JavaScript.
  .replace(/\s*<noscript>.*?<\/noscript>/s, "");
if (
  !landingPage.includes("Every step you walk helps a charity") ||
  /\/assets\/index-[\w-]+\.js/.test(landingPage)
) {
  throw new Error("The landing page's HTML was not written as expected");
}
writeFileSync("dist/landing.html", landingPage);

// Everything is written. Vite leaves a timer of minutes behind after its builds and its SSR loader
// (a clean clone's build waited five minutes here for nothing), so the process ends now.
process.exit(0);
