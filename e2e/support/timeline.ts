import type { Page, Request } from "playwright-core";
import { onTestFailed } from "vitest";

/**
 * Notes each step of a test as it starts, with the time since the first. When the test fails (its
 * own timeout among the ways), it prints the steps, where each page was and the requests they still
 * waited for: a test that runs out of time otherwise says only that it did.
 */
export function timeline(...pages: Page[]): (step: string) => void {
  const started = Date.now();
  const steps: string[] = [];
  const open = new Set<string>();
  for (const page of pages) {
    page.on("request", (request) => open.add(`${request.method()} ${request.url()}`));
    const answered = (request: Request) => open.delete(`${request.method()} ${request.url()}`);
    page.on("requestfinished", answered);
    page.on("requestfailed", answered);
  }
  onTestFailed(() => {
    const where = pages.map((page) => page.url()).join(" and ");
    console.error(
      `Where the test stood: ${steps.join(" → ")}; the pages were on ${where}; requests unanswered: ${JSON.stringify([...open])}`,
    );
  });
  return (step) => {
    steps.push(`${step} (${Date.now() - started} ms)`);
  };
}
