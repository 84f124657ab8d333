import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // The run's app server pool (each file gets a server of its own, the first building what is
    // stale): see support/global-setup.ts.
    globalSetup: ["support/global-setup.ts"],
    // Two files at once, each with its own app server and its own Chromium. A third filled the
    // cores better (a file spends much of its time waiting), but on a loaded 2-core machine the
    // pages' timers then ran late: a walk simulated in real time counted 11 steps of 18, and a
    // screen took over 30 s. While the files shared one Chromium, a page of one would stall for
    // half a minute while another ran; with a Chromium each, that has not happened.
    // E2E_FILES_AT_ONCE=1 runs them one by one.
    fileParallelism: true,
    maxWorkers: Number(process.env.E2E_FILES_AT_ONCE ?? 2),
    // The files share the worker's modules (playwright's among them) instead of loading them again.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // A screen that follows a server's answer can take seconds on a busy machine; vitest's default
    // poll gives up after one.
    expect: { poll: { timeout: 10_000 } },
  },
});
