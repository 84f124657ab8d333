// `pnpm start`: install and build whatever is missing or out of date, then serve the PWA and the
// API from one origin. Uses only Node's own modules, so it runs before `pnpm install`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Newest modification time among `paths` (files or folders, searched recursively). */
function newest(paths) {
  let latest = 0;
  for (const path of paths.map((p) => join(root, p))) {
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path, { recursive: true })) {
        const entryStat = statSync(join(path, entry.toString()));
        if (entryStat.isFile()) latest = Math.max(latest, entryStat.mtimeMs);
      }
    } else {
      latest = Math.max(latest, stat.mtimeMs);
    }
  }
  return latest;
}

function isStale(output, sources) {
  const target = join(root, output);
  return !existsSync(target) || statSync(target).mtimeMs < newest(sources);
}

if (!existsSync(join(root, "node_modules", ".modules.yaml"))) {
  run("pnpm", ["install", "--frozen-lockfile"]);
}

const sharedSources = ["shared-types/src", "shared-types/package.json"];
const builds = [
  { filter: "./shared-types", output: "shared-types/dist/index.js", sources: sharedSources },
  {
    filter: "./prize-draw",
    output: "prize-draw/dist/index.js",
    sources: ["prize-draw/src", "prize-draw/package.json", ...sharedSources],
  },
  {
    filter: "./api",
    output: "api/dist/server.js",
    sources: ["api/src", "api/scripts", "api/package.json", "prize-draw/src", ...sharedSources],
  },
  {
    filter: "./web",
    output: "web/dist/index.html",
    sources: [
      "web/src",
      "web/public",
      "web/index.html",
      "web/vite.config.ts",
      "web/package.json",
      "sw/src",
      ...sharedSources,
    ],
  },
];
for (const build of builds) {
  if (isStale(build.output, build.sources)) {
    console.log(`Building ${build.filter.slice(2)}…`);
    // Always a production build: started from a test runner (NODE_ENV=test), Vite would otherwise
    // bundle React's development build, several times larger and slower.
    run("pnpm", ["--filter", build.filter, "run", "build"], { ...process.env, NODE_ENV: "production" });
  }
}

const { flags } = JSON.parse(readFileSync(join(root, "scripts/api-node-flags.json"), "utf8"));
const server = spawn(process.execPath, [...flags, join(root, "api/dist/server.js")], {
  cwd: root,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
