/**
 * The import's Web Worker: reads the chosen file as a stream off the page's thread, so a large export
 * neither freezes the page nor is ever held whole in memory.
 */
import { runExportJob } from "./health-export-job";
import type { ReadExportMessage, ReadExportRequest } from "./health-export-protocol";

// The web package is typed with the DOM library; a dedicated worker's scope is typed here by hand.
const scope = self as unknown as {
  postMessage(message: ReadExportMessage): void;
  onmessage: ((event: MessageEvent<ReadExportRequest>) => void) | null;
};

scope.onmessage = ({ data }) => {
  void runExportJob(data, (message) => scope.postMessage(message));
};
