// The API server as one JavaScript file (esbuild), for `pnpm build` and for the processes tests
// start. Node then reads one file instead of resolving and loading about a thousand modules: a
// process starts on a third of the CPU, which is what a restart, a second process, and every test
// that starts the server pays. The native packages, the font package (whose files are read from
// disk) and the password checker's word lists stay in node_modules.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const NOT_BUNDLED = [
  "better-sqlite3",
  "sharp",
  "@resvg/resvg-js",
  "pg-native",
  "dejavu-fonts-ttf",
  // The password checker's word lists (1.6 MB of the bundle), loaded when a password is first
  // checked rather than held by every process from its start.
  "@zxcvbn-ts/language-common",
  "@zxcvbn-ts/language-en",
];

/**
 * Bundles `entryPoints` (name → path from `api/`) into `outdir`. The checkpointer's thread must be
 * one of them: the server looks for it beside itself (`./wal-checkpoint-thread.js`).
 */
export async function bundleApi({ apiRoot, entryPoints, outdir, conditions = [] }) {
  await build({
    absWorkingDir: apiRoot,
    entryPoints,
    outdir,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions,
    // A map file beside the bundle, naming the sources without holding them: with
    // --enable-source-maps, a map inlined in the bundle (or holding every package's source) cost
    // a process more to start than the bundle saved.
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "error",
    external: NOT_BUNDLED,
    // Bundled CommonJS packages call require() for Node's own modules, which an ES module lacks.
    banner: {
      js: 'import { createRequire as bundleCreateRequire } from "node:module"; const require = bundleCreateRequire(import.meta.url);',
    },
  });
}

/** Run by `pnpm build` after tsc: `dist/server.js` (what `node` runs) becomes the whole server in one file. */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const apiRoot = fileURLToPath(new URL("..", import.meta.url));
  await bundleApi({
    apiRoot,
    entryPoints: { server: "./src/server.ts", "wal-checkpoint-thread": "./src/db/wal-checkpoint-thread.js" },
    outdir: join(apiRoot, "dist"),
  });
}
