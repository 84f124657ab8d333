import type { Page, Request } from "playwright-core";
import { onTestFailed } from "vitest";

/**
 * Notes each step of a test as it starts, with the time since the first. When the test fails (its
 * own timeout among the ways), it prints the steps, where the page was and the requests it still
 * waited for: a test that runs out of time otherwise says only that it did.
 */
export function timeline(page: Page): (step: string) => void {
  const started = Date.now();
  const steps: string[] = [];
  const open = new Set<string>();
  page.on("request", (request) => open.add(`${request.method()} ${request.url()}`));
  const answered = (request: Request) => open.delete(`${request.method()} ${request.url()}`);
  page.on("requestfinished", answered);
  page.on("requestfailed", answered);
  onTestFailed(() => {
    console.error(
      `Where the test stood: ${steps.join(" → ")}; the page was on ${page.url()}; requests unanswered: ${JSON.stringify([...open])}`,
    );
  });
  return (step) => {
    steps.push(`${step} (${Date.now() - started} ms)`);
  };
}
