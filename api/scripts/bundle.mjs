// The API server as one JavaScript file (esbuild), for `pnpm build` and for the processes tests
// start. Node then reads one file instead of resolving and loading about a thousand modules: a
// process starts on a third of the CPU, which is what a restart, a second process, and every test
// that starts the server pays. The native packages, the font package (whose files are read from
// disk) and the password checker's word lists stay in node_modules.
import { mkdirSync, writeFileSync } from "node:fs";
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

const API_ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Bundles `entryPoints` (name → path from `workingDir`) into `outdir`, with the checkpointer's
 * thread beside them, where the server looks for it (`./wal-checkpoint-thread.js`).
 */
export async function bundleApi({ entryPoints, outdir, conditions = [], workingDir = API_ROOT }) {
  await build({
    absWorkingDir: workingDir,
    entryPoints: {
      ...entryPoints,
      "wal-checkpoint-thread": join(API_ROOT, "src/db/wal-checkpoint-thread.js"),
    },
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

/**
 * A bundle for the tests' or the bench's processes, in `api/node_modules/.cache/{name}`: inside
 * api/node_modules, where the packages left out of it are found, and marked as ES modules (the
 * search for a package.json stops at node_modules). Answers the folder.
 */
export async function bundleApiInCache(name, options) {
  const outdir = join(API_ROOT, "node_modules", ".cache", name);
  mkdirSync(outdir, { recursive: true });
  writeFileSync(join(outdir, "package.json"), '{ "type": "module" }\n');
  await bundleApi({ ...options, outdir });
  return outdir;
}

/** Run by `pnpm build` after tsc: `dist/server.js` (what `node` runs) becomes the whole server in one file. */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleApi({ entryPoints: { server: "./src/server.ts" }, outdir: join(API_ROOT, "dist") });
}
