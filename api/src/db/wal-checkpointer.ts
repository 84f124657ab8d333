import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SqliteDatabase from "better-sqlite3";

/** SQLite's default: the commit that takes the log past this many pages checkpoints it. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/** How long the checkpointer rests after a pass that found nothing new in the log. */
export const CHECKPOINT_IDLE_MS = 20;
/**
 * Past this many frames (32 MB at 4 KB a page) the log is restarted, which makes writers wait for a
 * few milliseconds: passive passes never block a writer, but a writer that never pauses can keep
 * the log from ever being emptied, and it would grow without end.
 */
export const RESTART_LOG_FRAMES = 8000;

/**
 * The checkpointer's thread, as CommonJS source: a worker given a file would need that file
 * compiled, and the tests run the TypeScript sources. It copies the log into the database file on
 * its own connection, pass after pass while writers keep adding frames (each pass is then short,
 * and one that ends between two commits lets the next writer start the log afresh).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma("busy_timeout = 5000");
let timer;
let lastLog = 0;
function pass() {
  let delay = ${CHECKPOINT_IDLE_MS};
  try {
    const [result] = db.pragma("wal_checkpoint(PASSIVE)");
    if (result.log > ${RESTART_LOG_FRAMES}) db.pragma("wal_checkpoint(RESTART)");
    else if (result.log !== lastLog || result.checkpointed < result.log) delay = 0;
    lastLog = result.log;
  } catch (error) {
    parentPort.postMessage(String(error && error.message));
  }
  timer = setTimeout(pass, delay);
}
timer = setTimeout(pass, ${CHECKPOINT_IDLE_MS});
parentPort.on("message", () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Checkpoints an SQLite database's write-ahead log on a thread of its own (issue 6). By default
 * SQLite checkpoints inside the commit that fills the log past 1,000 pages, on the thread that
 * commits: here the request thread, which stood still while pages were copied and the file synced
 * (a fifth of a sync's time, more the larger the database). The request thread's connection turns
 * that off and leaves the copying to this thread. Durability is unchanged: a commit is durable once
 * it is in the log, whoever copies it later. Should the thread fail, the connection goes back to
 * checkpointing in its commits.
 */
export class WalCheckpointer {
  private stopping = false;
  private readonly exited: Promise<void>;

  private constructor(private readonly worker: Worker) {
    this.exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  }

  /** `workerSource` is the thread's code; only a test gives another (one that fails). */
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
    worker.on("message", (message: string) => warn(`a checkpoint failed: ${message}`));
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
    this.worker.postMessage("stop");
    await this.exited;
  }
}
