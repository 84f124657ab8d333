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
    // Each file gets its own databases; files run in parallel on the two cores.
    pool: "forks",
  },
});
