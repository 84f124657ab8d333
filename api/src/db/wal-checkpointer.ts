import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SqliteDatabase from "better-sqlite3";

/** SQLite's default: the commit that takes the log past this many pages checkpoints it. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/** The checkpointer's first rest once the log stops moving; each still pass doubles it, up to the most. */
const FIRST_REST_MS = 20;
const LONGEST_REST_MS = 1000;
/**
 * Past this many frames (32 MB at 4 KB a page) the log is restarted, which makes writers wait for a
 * few milliseconds: passive passes never block a writer, but a writer that never pauses can keep
 * the log from ever being emptied, and it would grow without end.
 */
export const RESTART_LOG_FRAMES = 8000;

/** The longest a restart waits for the writer to commit and for readers to finish. */
const RESTART_WAIT_MS = 10;
/** Failed passes in a row after which the thread gives checkpoints back to the commits. */
const FAILURES_BEFORE_GIVING_UP = 10;
/** How long restarts must have been refused before the log is said to be stuck, and how often. */
const STUCK_AFTER_MS = 1000;
const STUCK_WARNING_EVERY_MS = 60_000;

/**
 * The checkpointer's thread, as CommonJS source: a worker given a file would need that file
 * compiled, and the tests run the TypeScript sources. It copies the log into the database file on
 * its own connection, pass after pass while the log moves (each pass is then short, and one that
 * ends between two commits lets the next writer start the log afresh), resting once it is still
 * (longer and longer, so that an idle server's thread wakes about once a second).
 * A restart waits at most RESTART_WAIT_MS for a lock, and is otherwise tried again later: while
 * it waits for readers it holds writers up, so a reader that keeps its snapshot (a backup, another
 * process) can stall the request thread's commits for that long, not for the 5 s busy timeout.
 */
export const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma("busy_timeout = ${RESTART_WAIT_MS}");
let timer;
let last = { log: 0, checkpointed: 0 };
let rest = ${FIRST_REST_MS};
let failures = 0;
let stuckSince = 0;
let warnedAt = 0;
function pass() {
  let moved = false;
  try {
    let [result] = db.pragma("wal_checkpoint(PASSIVE)");
    moved = result.log !== last.log || result.checkpointed !== last.checkpointed;
    if (result.log > ${RESTART_LOG_FRAMES}) {
      [result] = db.pragma("wal_checkpoint(RESTART)");
      // A refused restart held writers up while it waited: the next one waits for a rest.
      if (result.busy) moved = false;
      stuckSince = result.busy ? stuckSince || Date.now() : 0;
      const now = Date.now();
      if (stuckSince && now - stuckSince >= ${STUCK_AFTER_MS} && now - warnedAt >= ${STUCK_WARNING_EVERY_MS}) {
        warnedAt = now;
        parentPort.postMessage("the write-ahead log holds " + result.log + " frames and cannot be restarted yet: a reader or writer keeps it in use");
      }
    } else {
      stuckSince = 0;
    }
    last = result;
    failures = 0;
  } catch (error) {
    failures += 1;
    const message = String(error && error.message);
    if (failures >= ${FAILURES_BEFORE_GIVING_UP}) {
      parentPort.postMessage(failures + " checkpoints failed in a row (" + message + "): commits checkpoint again");
      return stop();
    }
    if (failures === 1) parentPort.postMessage("a checkpoint failed: " + message);
  }
  // Straight on while the log moves; resting longer and longer while it is still.
  rest = moved ? ${FIRST_REST_MS} : Math.min(rest * 2, ${LONGEST_REST_MS});
  timer = setTimeout(pass, moved ? 0 : rest);
}
function stop() {
  clearTimeout(timer);
  db.close();
  parentPort.close();
}
timer = setTimeout(pass, ${FIRST_REST_MS});
parentPort.on("message", stop);
`;

/**
 * Checkpoints an SQLite database's write-ahead log on a thread of its own. By default
 * SQLite checkpoints inside the commit that fills the log past 1,000 pages, on the thread that
 * commits: here the request thread, which stood still while pages were copied and the file synced
 * (a fifth of a sync's time, more the larger the database). The request thread's connection turns
 * that off and leaves the copying to this thread. Durability is unchanged: a commit has written its
 * frames to the log before it returns, whoever copies them later. Should the thread fail or give
 * up, the connection goes back to checkpointing in its commits.
 */
export class WalCheckpointer {
  private stopping = false;
  private readonly exited: Promise<void>;

  private constructor(private readonly worker: Worker) {
    this.exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  }

  /** `workerSource` is the thread's code; only a test gives another (one that fails, or whose checkpoints do). */
  static start(connection: SqliteDatabase.Database, workerSource = WORKER_SOURCE): WalCheckpointer {
    connection.pragma("wal_autocheckpoint = 0");
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: {
        path: connection.name,
        driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      },
    });
    const checkpointer = new WalCheckpointer(worker);
    const warn = (message: string) => process.emitWarning(message, "SqliteCheckpointWarning");
    worker.on("message", (message: string) => warn(message));
    worker.on("error", (error) => warn(`the checkpoint thread failed: ${error.message}`));
    worker.on("exit", () => {
      if (!checkpointer.stopping && connection.open) {
        connection.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
      }
    });
    // An idle checkpointer must not keep the process alive.
    worker.unref();
    return checkpointer;
  }

  /** Closes the thread's connection (the last one closed empties the log) and ends the thread. */
  async stop(): Promise<void> {
    this.stopping = true;
    // Unreferenced while it runs; kept now, so that the process waits for its connection to close.
    this.worker.ref();
    this.worker.postMessage("stop");
    await this.exited;
  }
}
