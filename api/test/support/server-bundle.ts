import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleApi } from "../../scripts/bundle.mjs";

const apiRoot = fileURLToPath(new URL("../..", import.meta.url));

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
 * The bundle sits inside api/node_modules, where the packages left out of it are found. The
 * checkpointer's thread sits beside the server, where the server's `new URL(…, import.meta.url)`
 * looks for it.
 */
export async function bundleServer(): Promise<ServerBundle> {
  const outdir = join(apiRoot, "node_modules", ".cache", "charity-steps-test-server");
  mkdirSync(outdir, { recursive: true });
  // ES modules, as the API's own files are (node_modules ends the search for api/package.json).
  writeFileSync(join(outdir, "package.json"), '{ "type": "module" }\n');
  await bundleApi({
    apiRoot,
    entryPoints: {
      server: "./src/server.ts",
      "wal-checkpoint-thread": "./src/db/wal-checkpoint-thread.js",
      "process-clock": "./test/reliability/process-clock.ts",
    },
    outdir,
    // The workspace's packages from their source, as the tests import them.
    conditions: ["source"],
  });
  return { server: join(outdir, "server.js"), clock: join(outdir, "process-clock.js") };
}
