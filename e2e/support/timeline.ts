import type { Page, Request } from "playwright-core";
import { onTestFailed } from "vitest";

/**
 * Notes each step of a test as it starts, with the time since the first. When the test fails (its
 * own timeout among the ways), it prints the steps, where each page was and the requests still
 * unanswered, each with the tab or service worker that sent it: a test that runs out of time
 * otherwise says only that it did. Requests are watched on the pages' browser contexts, so that the
 * service worker's (the queued steps it sends) are among them.
 */
export function timeline(...pages: Page[]): (step: string) => void {
  const started = Date.now();
  const steps: string[] = [];
  const open = new Map<Request, string>();
  const sender = (request: Request) => {
    if (request.serviceWorker()) return "service worker";
    try {
      const index = pages.indexOf(request.frame().page());
      return index === -1 ? "another page" : `tab ${index + 1}`;
    } catch {
      // A request with no frame of a page: a worker's of its own.
      return "a worker";
    }
  };
  for (const context of new Set(pages.map((page) => page.context()))) {
    context.on("request", (request) =>
      open.set(request, `${sender(request)}: ${request.method()} ${request.url()}`),
    );
    const answered = (request: Request) => open.delete(request);
    context.on("requestfinished", answered);
    context.on("requestfailed", answered);
  }
  onTestFailed(() => {
    const where = pages.map((page, index) => `tab ${index + 1} on ${page.url()}`).join(", ");
    console.error(
      `Where the test stood: ${steps.join(" → ")}; ${where}; requests unanswered: ${JSON.stringify([...open.values()])}`,
    );
  });
  return (step) => {
    steps.push(`${step} (${Date.now() - started} ms)`);
  };
}
