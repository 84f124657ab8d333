// Usage: pnpm count-steps <file-or-folder>...
// Prints each recording under the given paths with the step detector's count. Accepts a validation
// CSV, an optimisation folder, or a folder holding either (searched recursively).
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { countSteps } from "../index.js";
import { findWalkRecordings, readWalkRecording } from "./walk-recordings.js";

// pnpm runs this from step-detector/; INIT_CWD is where the user typed the command.
const cwd = process.env.INIT_CWD ?? process.cwd();
const args = process.argv.slice(2);

if (args.length === 0) {
  console.error("usage: pnpm count-steps <recording-file-or-folder>...");
  process.exit(2);
}

let failed = false;
for (const arg of args) {
  const path = resolve(cwd, arg);
  if (!existsSync(path)) {
    console.error(`${arg}: not found`);
    failed = true;
    continue;
  }
  const recordings = findWalkRecordings(path);
  if (recordings.length === 0) {
    console.error(`${arg}: no recordings found`);
    failed = true;
  }
  for (const recording of recordings) {
    try {
      console.log(`${relative(cwd, recording) || "."}\t${countSteps(readWalkRecording(recording))}`);
    } catch (error) {
      console.error(`${relative(cwd, recording)}: ${error instanceof Error ? error.message : String(error)}`);
      failed = true;
    }
  }
}
process.exitCode = failed ? 1 : 0;
