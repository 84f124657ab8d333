// Writes Brotli and gzip copies next to each text asset of web/dist, which the API serves in place of
// the original to browsers that accept them (@fastify/static's preCompressed).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = fileURLToPath(new URL("../dist", import.meta.url));
const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let count = 0;
for (const path of files(dist)) {
  if (!TEXT.test(path) || statSync(path).size < MIN_BYTES) continue;
  const body = readFileSync(path);
  writeFileSync(`${path}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
  count++;
}
console.log(`compressed ${count} files in web/dist (.br, .gz)`);
