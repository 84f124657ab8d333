import { join } from "node:path";
import { bundleApiInCache } from "../../scripts/bundle.mjs";

/** The files of the bundle an API process a test starts runs. */
export interface ServerBundle {
  /** The server (src/server.ts). */
  server: string;
  /** Preloaded with --import: the process's clock runs at the test's (process-clock.ts). */
  clock: string;
}

/**
 * The API's server, as the source is now, bundled once per test run for the processes tests start
 * (killed mid-burst, two on one database, a bad configuration), as `pnpm build` bundles it
 * (scripts/bundle.mjs): it loads as one file of plain JavaScript instead of TypeScript through tsx.
 * The bundle sits inside api/node_modules, where the packages left out of it are found.
 */
export async function bundleServer(): Promise<ServerBundle> {
  const outdir = await bundleApiInCache("charity-steps-test-server", {
    entryPoints: { server: "./src/server.ts", "process-clock": "./test/reliability/process-clock.ts" },
    // The workspace's packages from their source, as the tests import them.
    conditions: ["source"],
  });
  return { server: join(outdir, "server.js"), clock: join(outdir, "process-clock.js") };
}
