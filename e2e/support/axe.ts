import axe from "axe-core";
import type { Page } from "playwright-core";

type NodeResult = axe.NodeResult;
type Violation = axe.Result;

/** The axe tags of WCAG 2.2 levels A and AA (2.0, 2.1 and 2.2 rules), the standard the app holds to. */
export const WCAG_22_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Runs axe-core's `axe.run` in the page on `include` (the whole document without it), with the
 * given rules or tags, and answers the violations. axe is put into a document once and kept there
 * for every later check of it: evaluating its half a megabyte of script took longer than most
 * checks themselves. Only violations are reported, so axe does not work out selectors for every
 * element that passes. The app has no frames, so the page is the whole of what is checked.
 */
async function axeRun(
  page: Page,
  only: { rules: string[] } | { tags: string[] },
  include?: string,
): Promise<Violation[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === "object");
  // As a script of its own (not `eval` in the page), which the app's content security policy forbids.
  if (!loaded) await page.evaluate(axe.source);
  const runOnly =
    "rules" in only
      ? { type: "rule" as const, values: only.rules }
      : { type: "tag" as const, values: only.tags };
  return page.evaluate(
    async ({ include, options }) => {
      const { axe } = window as unknown as { axe: typeof import("axe-core") };
      return (await axe.run(include ?? document, options)).violations;
    },
    { include, options: { runOnly, resultTypes: ["violations"] as axe.resultGroups[] } },
  );
}

/**
 * Runs axe-core on what the page shows now, limited to WCAG 2.2 A and AA, and describes each
 * violation as its rule, what it asks for, and every element at fault (selector and HTML), so a
 * failing test says where to look without running it again. `include` narrows the check to part
 * of the page (a toast, a dialog).
 */
export async function wcagViolations(page: Page, { include }: { include?: string } = {}): Promise<string[]> {
  const analyze = async (rules?: string[]) => {
    await motionSettled(page);
    return axeRun(page, rules ? { rules } : { tags: WCAG_22_AA_TAGS }, include);
  };
  // Something that starts moving while axe reads the page (a toast of badges just earned, sliding
  // in half-transparent) is judged half way: the rules it broke are run again once it has settled,
  // and only what is still wrong then counts.
  let violations = await analyze();
  if (violations.length > 0) violations = await analyze(violations.map((violation) => violation.id));
  for (const violation of violations.filter((v) => v.id === "target-size")) {
    violation.nodes = await stillTooSmall(page, violation.nodes);
  }
  return violations
    .filter((violation) => violation.nodes.length > 0)
    .map((violation) => {
      const nodes = violation.nodes.map(
        (node) => `    at ${JSON.stringify(node.target)}: ${node.html}\n      ${node.failureSummary ?? ""}`,
      );
      return `${violation.id} (${violation.impact ?? "no impact given"}): ${violation.help}\n${nodes.join("\n")}`;
    });
}

/**
 * A button that happens to sit under the sticky tab bar where the page is scrolled counts as
 * obscured, though the walker scrolls it into view to press it: such a target is checked again in
 * the middle of the screen, and only one still too small or crowded there is a violation.
 */
async function stillTooSmall(page: Page, nodes: NodeResult[]): Promise<NodeResult[]> {
  const kept: NodeResult[] = [];
  for (const node of nodes) {
    const selector = node.target.at(-1);
    if (!node.failureSummary?.includes("obscured") || typeof selector !== "string") {
      kept.push(node);
      continue;
    }
    await page
      .locator(selector)
      .first()
      .evaluate((element) => element.scrollIntoView({ block: "center" }));
    const again = await axeRun(page, { rules: ["target-size"] }, selector);
    if (again.length > 0) kept.push(node);
  }
  return kept;
}

/**
 * Waits until every finite animation and transition has ended, so colours are judged as they
 * settle (a tab fading to its selected colour, a toast sliding in), not half way. Endless ones (a
 * spinner, the Live badge's pulse) are left running. A toast that is closing is waited out too: its
 * fade can begin while axe reads the page (its time runs out then on a slow machine), and until it is
 * removed it stays see-through, which axe would judge as faint text.
 */
export async function motionSettled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (animation) =>
              animation.playState !== "running" ||
              animation.effect?.getComputedTiming().iterations === Infinity,
          ) &&
        Array.from(document.querySelectorAll(".toast")).every(
          (toast) => toast.getAttribute("data-state") === "open" && getComputedStyle(toast).opacity === "1",
        ),
      undefined,
      { polling: 100 },
    )
    .catch(async (error: unknown) => {
      const moving = await page
        .evaluate(() => ({
          animations: document
            .getAnimations()
            .filter((animation) => animation.playState === "running")
            .map((animation) => (animation as CSSAnimation).animationName ?? animation.id),
          toasts: Array.from(document.querySelectorAll(".toast")).map(
            (toast) =>
              `${toast.textContent} (${toast.getAttribute("data-state")}, opacity ${getComputedStyle(toast).opacity})`,
          ),
        }))
        .catch(() => "(the page could not be read)");
      throw new Error(`The page never settled: ${JSON.stringify(moving)}`, { cause: error });
    });
}

/** Fails with every violation's rule and elements when what the page shows breaks WCAG 2.2 A or AA. */
export async function expectAccessible(
  page: Page,
  screen: string,
  options?: { include?: string },
): Promise<void> {
  const violations = await wcagViolations(page, options);
  if (violations.length > 0) {
    throw new Error(`${screen}: ${violations.length} WCAG 2.2 AA violation(s)\n${violations.join("\n")}`);
  }
}
