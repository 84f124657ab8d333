import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // Migrates a template database once per run; test databases start as copies of it.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own databases, so files run in parallel, one worker per core (vitest's
    // default, one fewer than the cores, would run them one at a time on a 2-core machine). A
    // worker keeps the modules it has loaded from one file to the next instead of loading the app
    // again for each: files share no state but what they put back (the clock, spies).
    pool: "forks",
    maxWorkers: "100%",
    isolate: false,
    // Each file's transformed code is kept on disk (node_modules/.experimental-vitest-cache), keyed
    // by its content: `pnpm test:calendar` runs these files again at nine moments, each in a vitest
    // of its own, and no longer transforms them nine times.
    experimental: { fsModuleCache: true },
  },
});
