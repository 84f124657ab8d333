import type { ReadExportMessage, ReadExportRequest } from "./health-export-protocol";
import { HealthExportError, readHealthExport } from "./health-export-reader";

/** Progress is posted at most this often, so the messages cost nothing beside the reading. */
const PROGRESS_EVERY_MS = 100;

/** What the worker does with one request: reads the file, posting progress, then the result or the error. */
export async function runExportJob(
  { file, today }: ReadExportRequest,
  post: (message: ReadExportMessage) => void,
): Promise<void> {
  const totalBytes = file.size;
  let postedAt = 0;
  try {
    const summary = await readHealthExport(file.stream(), {
      today,
      onProgress(bytesRead) {
        const now = performance.now();
        if (now - postedAt < PROGRESS_EVERY_MS && bytesRead < totalBytes) return;
        postedAt = now;
        post({ type: "progress", bytesRead, totalBytes });
      },
    });
    post({ type: "done", summary });
  } catch (error) {
    if (error instanceof HealthExportError) {
      post({ type: "error", code: error.code, message: error.message });
    } else {
      console.error("Reading the Health export failed", error);
      post({
        type: "error",
        code: "unexpected",
        message: "The file could not be read. Nothing was imported: try choosing it again.",
      });
    }
  }
}
