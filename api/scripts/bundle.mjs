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
  const { outputFiles } = await build({
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
    write: false,
  });
  mkdirSync(outdir, { recursive: true });
  for (const file of outputFiles) {
    const text = file.path.endsWith(".js") ? latin1Source(file.text, file.path) : file.contents;
    writeFileSync(file.path, text);
  }
}

/**
 * The bundle's text with every character past Latin-1 written as its `\u` escape. V8 holds a
 * script's source for as long as its functions live, one byte a character when all of them fit in
 * Latin-1 and two otherwise. esbuild escapes such characters in the code it prints, but not in the
 * comments it keeps nor in regular expressions: one "’" in a package's e-mail pattern doubled the
 * bundle's 8 MB held in every process's heap. An escape means the same character in a comment, a
 * string and a pattern; after a backslash it would not, and the build stops instead. (Columns after
 * such a character on its line move in the source map by five: none of them is in the API's code.)
 */
export function latin1Source(text, path) {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0xff) continue;
    let backslashes = 0;
    while (text[i - 1 - backslashes] === "\\") backslashes++;
    if (backslashes % 2 === 1) {
      throw new Error(
        `${path}: an escaped character past Latin-1 at offset ${i}, which an escape would change`,
      );
    }
    out += `${text.slice(from, i)}\\u${code.toString(16).padStart(4, "0")}`;
    from = i + 1;
  }
  return out + text.slice(from);
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
