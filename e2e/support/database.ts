import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AppServer } from "./app-server.js";

const apiDir = fileURLToPath(new URL("../../api", import.meta.url));

/**
 * Every account on `server` made at `at` (ms since the epoch). A test signs up with the server's
 * clock a year ahead, so that the sign-in pages' cookies outlive the browser's real clock; a story
 * about an account's first weeks then moves its making back to the day the story says it was made.
 * No request can do this, so it goes straight into the server's SQLite file (better-sqlite3, from
 * the API's own dependencies).
 */
export function accountsMadeAt(server: AppServer, at: number): void {
  const script = `
    const Database = require("better-sqlite3");
    const [file, at] = process.argv.slice(1);
    const db = new Database(file);
    db.prepare("update users set created_at = ?").run(Number(at));
    db.close();
  `;
  const result = spawnSync(
    process.execPath,
    ["-e", script, join(server.dataDir, "charity-steps.db"), String(at)],
    { cwd: apiDir, encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`could not move the accounts' making: ${result.stderr}`);
}
