/**
 * The import's Web Worker: reads the chosen file as a stream off the page's thread, so a large export
 * neither freezes the page nor is ever held whole in memory.
 */

import type { ReadExportMessage, ReadExportRequest } from "./health-export-protocol";
import { HealthExportError, readHealthExport } from "./health-export-reader";

// The web package is typed with the DOM library; a dedicated worker's scope is typed here by hand.
const scope = self as unknown as {
  postMessage(message: ReadExportMessage): void;
  onmessage: ((event: MessageEvent<ReadExportRequest>) => void) | null;
};

/** Progress is posted at most this often, so the messages cost nothing beside the reading. */
const PROGRESS_EVERY_MS = 100;

scope.onmessage = async ({ data: { file, today } }) => {
  const totalBytes = file.size;
  let postedAt = 0;
  try {
    const summary = await readHealthExport(file.stream(), {
      today,
      onProgress(bytesRead) {
        const now = performance.now();
        if (now - postedAt < PROGRESS_EVERY_MS && bytesRead < totalBytes) return;
        postedAt = now;
        scope.postMessage({ type: "progress", bytesRead, totalBytes });
      },
    });
    scope.postMessage({ type: "done", summary });
  } catch (error) {
    if (error instanceof HealthExportError) {
      scope.postMessage({ type: "error", code: error.code, message: error.message });
    } else {
      console.error("Reading the Health export failed", error);
      scope.postMessage({
        type: "error",
        code: "unexpected",
        message: "The file could not be read. Nothing was imported: try choosing it again.",
      });
    }
  }
};
