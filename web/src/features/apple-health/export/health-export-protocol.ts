import type { DayString } from "@charity-steps/shared-types";
import type { HealthExportErrorCode, HealthExportSummary } from "./health-export-reader";

/** The page asks the worker to read one file. */
export interface ReadExportRequest {
  file: Blob;
  /** London today on the page, so page and worker agree on the accepted days. */
  today: DayString;
}

/** What the worker answers: progress any number of times, then one result or one error. */
export type ReadExportMessage =
  | { type: "progress"; bytesRead: number; totalBytes: number }
  | { type: "done"; summary: HealthExportSummary }
  | { type: "error"; code: HealthExportErrorCode | "unexpected"; message: string };
