// @ts-check
/**
 * The thread of `WalCheckpointer` (its settings come as `workerData`, a `CheckpointThreadData`).
 * Plain JavaScript: a worker runs a file as it is, and Node runs no TypeScript in a worker. It copies the log into the
 * database file on its own connection, a pass every `busyRestMs` while the log moves, and pass after
 * pass once it is half way to the restart point (one that ends between two commits lets the next
 * writer start the log afresh),
 * resting once it is still (longer and longer, so that an idle server's thread wakes about once a
 * second).
 * A restart waits at most `restartWaitMs` for a lock, and is otherwise tried again later: while it
 * waits for readers it holds writers up, so a reader that keeps its snapshot (a backup, another
 * process) can stall the request thread's commits for that long, not for the 5 s busy timeout.
 */
import { parentPort, workerData } from "node:worker_threads";
import SqliteDatabase from "better-sqlite3";

/** @typedef {{ busy: number, log: number, checkpointed: number }} CheckpointResult */

/** @type {import("./wal-checkpointer.js").CheckpointThreadData} */
const settings = workerData;
const port = parentPort;
if (!port) throw new Error("the checkpoint thread runs as a worker");

const db = new SqliteDatabase(settings.path, { fileMustExist: true });
db.pragma(`busy_timeout = ${settings.restartWaitMs}`);
/** @param {"PASSIVE" | "RESTART"} mode */
function checkpoint(mode) {
  const [result] = /** @type {CheckpointResult[]} */ (db.pragma(`wal_checkpoint(${mode})`));
  return /** @type {CheckpointResult} */ (result);
}

/** @type {NodeJS.Timeout | undefined} */
let timer;
let last = { log: 0, checkpointed: 0 };
let rest = settings.firstRestMs;
let failures = 0;
let stuckSince = 0;
let warnedAt = 0;

function pass() {
  Atomics.add(settings.passes, 0, 1);
  let moved = false;
  try {
    let result = checkpoint("PASSIVE");
    moved = result.log !== last.log || result.checkpointed !== last.checkpointed;
    if (result.log > settings.restartLogFrames) {
      result = checkpoint("RESTART");
      // A refused restart held writers up while it waited: the next one waits for a rest.
      if (result.busy) moved = false;
      stuckSince = result.busy ? stuckSince || Date.now() : 0;
      const now = Date.now();
      if (
        stuckSince &&
        now - stuckSince >= settings.stuckAfterMs &&
        now - warnedAt >= settings.stuckWarningEveryMs
      ) {
        warnedAt = now;
        port?.postMessage(
          `the write-ahead log holds ${result.log} frames and cannot be restarted yet: a reader or writer keeps it in use`,
        );
      }
    } else {
      stuckSince = 0;
    }
    last = result;
    failures = 0;
  } catch (error) {
    failures += 1;
    const message = String(error instanceof Error ? error.message : error);
    if (failures >= settings.failuresBeforeGivingUp) {
      port?.postMessage(`${failures} checkpoints failed in a row (${message}): commits checkpoint again`);
      stop();
      return;
    }
    if (failures === 1) port?.postMessage(`a checkpoint failed: ${message}`);
  }
  // A short rest while the log moves, none once it is half way to the restart point (so that a
  // restart comes in time to keep it within bounds); longer and longer while it is still.
  rest = moved ? settings.firstRestMs : Math.min(rest * 2, settings.longestRestMs);
  const busyRest = last.log > settings.restartLogFrames / 2 ? 0 : settings.busyRestMs;
  timer = setTimeout(pass, moved ? busyRest : rest);
}

function stop() {
  clearTimeout(timer);
  db.close();
  port?.close();
}

timer = setTimeout(pass, settings.firstRestMs);
port.on("message", stop);
