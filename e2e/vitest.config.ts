import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // The run's app server pool (each file gets a server of its own, the first building what is
    // stale): see support/global-setup.ts.
    globalSetup: ["support/global-setup.ts"],
    // Three files at once, each with its own app server and its own Chromium. A file spends much
    // of its time waiting (a walk in real time, a sync's retry, a page's network going quiet), so
    // a third file fills the cores where two left them idle half the time; a fourth gained
    // nothing. While the files shared one Chromium, a page of one would now and then stall for
    // half a minute or more while another file ran; with a Chromium each, that has not happened.
    // E2E_FILES_AT_ONCE=1 runs them one by one.
    fileParallelism: true,
    maxWorkers: Number(process.env.E2E_FILES_AT_ONCE ?? 3),
    // The files share the worker's modules (playwright's among them) instead of loading them again.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // A screen that follows a server's answer can take seconds on a busy machine; vitest's default
    // poll gives up after one.
    expect: { poll: { timeout: 10_000 } },
  },
});
