import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // The run's Chromium and its app server pool (each file gets a server of its own, the first
    // building what is stale): see support/global-setup.ts.
    globalSetup: ["support/global-setup.ts"],
    // One file at a time on two cores: each drives its own contexts against its own server.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
