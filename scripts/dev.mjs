// `pnpm dev`: the API in watch mode on :3000 and Vite on :5173, which proxies /api, /oidc and /auth
// to it. Walkers' URLs (and so the sign-in redirects) use Vite's origin.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const env = { PUBLIC_URL: "http://localhost:5173", ...process.env };

const children = [
  spawn("pnpm", ["--filter", "./api", "run", "dev"], { cwd: root, stdio: "inherit", env }),
  spawn("pnpm", ["--filter", "./web", "run", "dev"], { cwd: root, stdio: "inherit", env }),
];
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
for (const child of children) {
  child.on("exit", (code) => {
    stop("SIGTERM");
    process.exitCode = code ?? 0;
  });
}
