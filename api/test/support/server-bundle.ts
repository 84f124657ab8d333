import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

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
 * (killed mid-burst, two on one database, a bad configuration). Loading the TypeScript through tsx
 * in each of them cost seconds a start; the bundle loads as plain JavaScript. The API's own code
 * and the workspace packages are in it; every other package is imported from node_modules as
 * usual, hence the bundle's place inside api/node_modules. The checkpointer's thread sits beside
 * the server, where the server's `new URL(…, import.meta.url)` looks for it.
 */
export async function bundleServer(): Promise<ServerBundle> {
  const outdir = join(apiRoot, "node_modules", ".cache", "charity-steps-test-server");
  mkdirSync(outdir, { recursive: true });
  // ES modules, as the API's own files are (node_modules ends the search for api/package.json).
  writeFileSync(join(outdir, "package.json"), '{ "type": "module" }\n');
  await build({
    absWorkingDir: apiRoot,
    entryPoints: {
      server: "./src/server.ts",
      "wal-checkpoint-thread": "./src/db/wal-checkpoint-thread.js",
      "process-clock": "./test/reliability/process-clock.ts",
    },
    outdir,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: ["source"],
    sourcemap: "inline",
    logLevel: "error",
    plugins: [
      {
        name: "packages-stay-outside",
        setup(bundle) {
          // Bare imports, but the workspace's own packages (bundled from their source).
          bundle.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@charity-steps/") ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return { server: join(outdir, "server.js"), clock: join(outdir, "process-clock.js") };
}
