import type { Locator } from "playwright-core";
import { expect } from "vitest";

/**
 * How far each of `texts` runs past the right edge of the card (`.card`) around `element`, by the
 * text's own box (a Range, whatever element holds it; the widest where it shows more than once),
 * and how much wider than the screen the page is. Keys are each text's first 12 characters.
 */
export async function overflowOf(
  element: Locator,
  texts: string[],
): Promise<{ pageWider: number; past: Record<string, number> }> {
  return element.evaluate((root, wanted) => {
    const card = root.closest(".card");
    if (!card) throw new Error("The element is in no card");
    const cardRight = card.getBoundingClientRect().right;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const past: Record<string, number> = {};
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = wanted.find((each) => node?.textContent?.includes(each));
      if (!text) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      past[text.slice(0, 12)] = Math.max(
        past[text.slice(0, 12)] ?? Number.NEGATIVE_INFINITY,
        Math.round(range.getBoundingClientRect().right - cardRight),
      );
    }
    return {
      // Not `innerWidth`: a phone zooms out to show a page wider than its screen, and `innerWidth`
      // grows with it; `clientWidth` stays the screen's width.
      pageWider: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      past,
    };
  }, texts);
}

/**
 * What `overflowOf` answers when everything fits: each of `texts` shown and none past its card, nor
 * the page wider than the screen; with `texts` left out, whichever of them are shown.
 */
export function inside(texts?: string[]) {
  const fits = expect.toSatisfy((pixels: number) => pixels <= 0);
  return {
    pageWider: fits,
    past: texts
      ? Object.fromEntries(texts.map((text) => [text.slice(0, 12), fits]))
      : expect.toSatisfy((past: Record<string, number>) =>
          Object.values(past).every((pixels) => pixels <= 0),
        ),
  };
}
