/**
 * Starts reading a Health export in a Web Worker, reports its progress, lets the walker cancel it,
 * and queues what it found in the outbox as `apple_health` counts, so the days reach the server even
 * if the phone goes offline or the page reloads before they are sent.
 */
import { requestBackgroundSync } from "@charity-steps/client-store/background-sync";
import {
  enqueueSync,
  type ReplaySummary,
  replayOutbox,
  worthRetrying,
} from "@charity-steps/client-store/outbox";
import { type DayString, londonDay } from "@charity-steps/shared-types";
import type { ReadExportMessage, ReadExportRequest } from "./health-export-protocol";
import type { HealthExportSummary } from "./health-export-reader";

export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  /** Whole percent of the file's bytes read. */
  percent: number;
}

/** How the queued days went on to the server. */
export type ImportDelivery = "sent" | "later" | "signed-out";

export type ImportOutcome =
  | {
      status: "imported";
      summary: HealthExportSummary;
      /** Settles once the outbox has been replayed; the days are queued whatever it says. */
      delivery: Promise<ImportDelivery>;
    }
  | { status: "cancelled" };

export interface RunningImport {
  /** Resolves once the days are queued (or the import was cancelled); rejects with the walker's message. */
  result: Promise<ImportOutcome>;
  /** Stops the worker: nothing is imported. No effect once the days are being queued. */
  cancel(): void;
}

/** What the import needs of a Worker, so tests can stand in for one. */
export interface ExportWorker {
  postMessage(request: ReadExportRequest): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<ReadExportMessage>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
  /** Called after a replay the server took something from, so screens refresh their totals. */
  onSent?: (summary: ReplaySummary) => void;
  today?: DayString;
  createWorker?: () => ExportWorker;
}

function createExportWorker(): ExportWorker {
  return new Worker(new URL("./health-export.worker.ts", import.meta.url), {
    type: "module",
    name: "health-export",
  }) as unknown as ExportWorker;
}

const UNREADABLE = "The file could not be read. Nothing was imported: try choosing it again.";

export function importHealthExport(
  file: Blob,
  { onProgress, onSent, today = londonDay(), createWorker = createExportWorker }: ImportOptions = {},
): RunningImport {
  const worker = createWorker();
  let settle: ((outcome: ImportOutcome) => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  let finished = false;
  const finish = () => {
    finished = true;
    worker.terminate();
  };

  const result = new Promise<ImportOutcome>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });

  worker.onmessage = ({ data }) => {
    if (finished) return;
    if (data.type === "progress") {
      const percent = data.totalBytes === 0 ? 100 : Math.floor((data.bytesRead / data.totalBytes) * 100);
      onProgress?.({ bytesRead: data.bytesRead, totalBytes: data.totalBytes, percent });
      return;
    }
    finish();
    if (data.type === "error") {
      fail?.(new Error(data.message));
      return;
    }
    queueDays(data.summary).then(
      () => settle?.({ status: "imported", summary: data.summary, delivery: deliver(onSent) }),
      (error: unknown) => {
        console.error("Queueing the imported days failed", error);
        fail?.(new Error("The steps were read but could not be saved on this device. Nothing was imported."));
      },
    );
  };
  worker.onerror = (event) => {
    if (finished) return;
    finish();
    console.error("The Health export worker failed", event.message);
    fail?.(new Error(UNREADABLE));
  };
  worker.postMessage({ file, today });

  return {
    result,
    cancel() {
      if (finished) return;
      finish();
      settle?.({ status: "cancelled" });
    },
  };
}

/** Each day's total as the device's Apple Health count for that day (the larger count is kept). */
async function queueDays({ days }: HealthExportSummary): Promise<void> {
  for (const { day, steps } of days) await enqueueSync(day, steps, "apple_health");
}

/** Sends the outbox now; what cannot go now is left to the service worker's Background Sync. */
async function deliver(onSent: ImportOptions["onSent"]): Promise<ImportDelivery> {
  try {
    const summary = await replayOutbox();
    if (summary.sent > 0) onSent?.(summary);
    if (summary.signedOut) return "signed-out";
    if (worthRetrying(summary)) {
      await requestBackgroundSync();
      return "later";
    }
    return summary.kept > 0 ? "later" : "sent";
  } catch (error) {
    console.warn("Sending the imported days failed; they stay queued", error);
    return "later";
  }
}
