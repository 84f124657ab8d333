import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Starts the app servers for the whole run (each file gets its own); the first builds what is stale.
    globalSetup: ["support/global-setup.ts"],
    // One file at a time: each drives its own Chromium against its own server on two cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
