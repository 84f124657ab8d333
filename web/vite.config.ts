/// <reference types="vitest/config" />

import { readdirSync, readFileSync } from "node:fs";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import {
  defaultClientConditions,
  defaultServerConditions,
  defineConfig,
  type ProxyOptions,
  type UserConfig,
} from "vite";
import { VitePWA } from "vite-plugin-pwa";

// The API (port 3000) answers these paths itself; keeping the browser's Host lets its cookies and
// OIDC redirects name the dev server's origin.
const toApi: ProxyOptions = { target: "http://localhost:3000", changeOrigin: false, xfwd: true };
const apiProxy = { "/api": toApi, "/oidc": toApi, "/auth": toApi };

const TESTS = /\.test\.tsx?$/;
/**
 * Test files that replace a module (`vi.mock`). A replacement holds only where the module is first
 * loaded after it, so these files each get a fresh module registry; the rest share one per worker.
 */
const testsReplacingModules = readdirSync("test", { recursive: true, encoding: "utf8" })
  .filter((file) => TESTS.test(file) && readFileSync(`test/${file}`, "utf8").includes("vi.mock("))
  .map((file) => `test/${file}`);

/** The build of the landing page's own script (web/scripts/build.mjs). */
const LANDING_PAGE_MODE = "landing-page";

// Use shared-types' TypeScript source directly, so there is no build step to forget.
const resolve = { conditions: ["source", ...defaultClientConditions] };

// shared-types builds its request schemas at module level (TypeBox's `Type.Object(...)` and
// friends), and a bundler keeps any call it cannot prove free of side effects: one constant
// imported from such a module brought all its schemas and TypeBox's builder with it. The
// builder has none, so what the page never reads is left out.
const treeshake = {
  manualPureFunctions: ["Type"],
  // TypeBox's modules only define things (no polyfills, no registrations), but its package
  // does not say so: without this, a page that reads no schema still loads its settings.
  moduleSideEffects: (id: string) => !id.includes("/node_modules/typebox/"),
};

export default defineConfig(({ mode }) => (mode === LANDING_PAGE_MODE ? landingPageScript : app));

/**
 * The landing page's HTML has a script of its own instead of the app's (src/landing.ts), built
 * beside the app into web/dist/assets: no plugins, so the app's service worker and manifest stay
 * as the app's build wrote them.
 */
const landingPageScript: UserConfig = {
  resolve,
  publicDir: false,
  build: {
    outDir: "dist",
    emptyOutDir: false,
    rollupOptions: { input: "src/landing.ts", treeshake },
  },
};

const app: UserConfig = {
  resolve,
  // The same for code run in Node (the export reader's tests run there, with no DOM).
  ssr: { resolve: { conditions: ["source", ...defaultServerConditions] } },
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      strategies: "injectManifest",
      srcDir: "../sw/src",
      filename: "sw.ts",
      registerType: "prompt",
      injectRegister: false,
      // The glob below already precaches every icon; listing them again would only duplicate entries.
      includeManifestIcons: false,
      manifest: {
        id: "/",
        name: "Charity Steps",
        short_name: "Charity Steps",
        description: "Count your steps, support a charity and earn monthly prize-draw entries.",
        lang: "en-GB",
        theme_color: "#0d9488",
        background_color: "#f8fafc",
        display: "standalone",
        orientation: "portrait",
        start_url: "/",
        scope: "/",
        icons: [
          { src: "/pwa-192x192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/pwa-512x512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/maskable-icon-512x512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
        // What the install dialog shows of the app (a phone's screen, at twice its CSS pixels).
        screenshots: [
          {
            src: "/screenshots/dashboard-narrow.png",
            sizes: "780x1688",
            type: "image/png",
            form_factor: "narrow",
            label: "Today's steps against your goal, with your streak",
          },
          {
            src: "/screenshots/landing-narrow.png",
            sizes: "780x1688",
            type: "image/png",
            form_factor: "narrow",
            label: "Walk for Cancer Research UK, Crohn's & Colitis UK or British Heart Foundation",
          },
        ],
        // A long press on the installed app's icon: straight to walk mode, or to adding steps by hand.
        shortcuts: [
          {
            name: "Start a walk",
            short_name: "Walk",
            description: "Open walk mode to count steps with this phone",
            url: "/dashboard#walk",
            icons: [{ src: "/pwa-192x192.png", sizes: "192x192", type: "image/png" }],
          },
          {
            name: "Add steps",
            short_name: "Add steps",
            description: "Add steps by hand, with a photo",
            url: "/dashboard#add-steps",
            icons: [{ src: "/pwa-192x192.png", sizes: "192x192", type: "image/png" }],
          },
        ],
      },
      injectManifest: {
        globPatterns: ["**/*.{js,css,html,svg,png,ico}"],
        // Only the install dialog shows these: not worth every walker's download and storage.
        globIgnores: ["screenshots/**"],
      },
      devOptions: { enabled: false },
    }),
  ],
  server: { port: 5173, strictPort: true, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    rollupOptions: { treeshake },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./test/setup.ts"],
    restoreMocks: true,
    unstubGlobals: true,
    // One worker per core: vitest's default, one fewer than the cores, runs the files one at a
    // time on a 2-core machine.
    maxWorkers: "100%",
    projects: [
      // Loading the app's modules and jsdom again for each file took two thirds of the run. Files
      // share no state but what test/setup.ts puts back after each test (the DOM, storage, the
      // toasts, the request handlers).
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.{ts,tsx}"],
          exclude: testsReplacingModules,
          isolate: false,
        },
      },
      { extends: true, test: { name: "isolated", include: testsReplacingModules } },
    ],
  },
};
