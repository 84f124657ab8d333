import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // The run's Chromium and its app server pool (each file gets a server of its own, the first
    // building what is stale): see support/global-setup.ts.
    globalSetup: ["support/global-setup.ts"],
    // Two files at once: each drives its own contexts against its own server, and much of a file's
    // time is spent waiting (for the network, for a page to settle), not computing.
    maxWorkers: 2,
    isolate: false,
    testTimeout: 60_000,
    // A screen that follows a server's answer can take seconds on a busy machine (two files at
    // once, each with its server, in one Chromium); vitest's default poll gives up after one.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 300_000,
  },
});
