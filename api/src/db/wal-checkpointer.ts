import { Worker } from "node:worker_threads";
import type SqliteDatabase from "better-sqlite3";

/** SQLite's default: the commit that takes the log past this many pages checkpoints it. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/**
 * The checkpointer's rest between passes while commits keep coming. Each pass copies the pages
 * committed since the last one and syncs the file: with no rest, a busy writer's hot pages (a month's
 * totals, the trees' upper pages) were copied again after almost every commit, on a core the
 * request thread and its clients share. Resting this long, each is copied once per rest.
 */
const BUSY_REST_MS = 50;
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

/** What the thread is told as it starts (its `workerData`). */
export interface CheckpointThreadData {
  /** The database file. */
  path: string;
  busyRestMs: number;
  firstRestMs: number;
  longestRestMs: number;
  restartLogFrames: number;
  restartWaitMs: number;
  failuresBeforeGivingUp: number;
  stuckAfterMs: number;
  stuckWarningEveryMs: number;
  /** One counter, shared with the thread, of the passes it has made. */
  passes: Int32Array;
}

/**
 * The thread's module, beside this one in the sources and in `dist` alike (the build copies it as
 * it is).
 */
const THREAD_MODULE = new URL("./wal-checkpoint-thread.js", import.meta.url);

/**
 * Checkpoints an SQLite database's write-ahead log on a thread of its own. By default
 * SQLite checkpoints inside the commit that fills the log past 1,000 pages, on the thread that
 * commits: here the request thread, which stood still while pages were copied and the file synced
 * (a large share of a sync's time, more the larger the database). The request thread's connection turns
 * that off and leaves the copying to this thread. Durability is unchanged: a commit has written its
 * frames to the log before it returns, whoever copies them later. Should the thread fail or give
 * up, the connection goes back to checkpointing in its commits.
 */
export class WalCheckpointer {
  private stopping = false;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly worker: Worker,
    private readonly passCount: Int32Array,
  ) {
    this.exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  }

  /** `threadModule` is the thread's code; only a test gives another (one that fails, or whose checkpoints do). */
  static start(connection: SqliteDatabase.Database, threadModule = THREAD_MODULE): WalCheckpointer {
    connection.pragma("wal_autocheckpoint = 0");
    const workerData: CheckpointThreadData = {
      path: connection.name,
      busyRestMs: BUSY_REST_MS,
      firstRestMs: FIRST_REST_MS,
      longestRestMs: LONGEST_REST_MS,
      restartLogFrames: RESTART_LOG_FRAMES,
      restartWaitMs: RESTART_WAIT_MS,
      failuresBeforeGivingUp: FAILURES_BEFORE_GIVING_UP,
      stuckAfterMs: STUCK_AFTER_MS,
      stuckWarningEveryMs: STUCK_WARNING_EVERY_MS,
      passes: new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)),
    };
    const worker = new Worker(threadModule, { workerData });
    const checkpointer = new WalCheckpointer(worker, workerData.passes);
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

  /**
   * The passes the thread has made since it started: a count, unlike a share of time, that a busy
   * machine does not inflate (a pass waiting for a core takes longer, but is still one pass).
   */
  passes(): number {
    return Atomics.load(this.passCount, 0);
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
