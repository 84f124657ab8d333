import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * A server clock that a test moves: for what happens only at a moment (a month's close, a prize's
 * claim deadline), without waiting for it.
 *
 * Every Node process the app server runs loads a small module first (through NODE_OPTIONS) that
 * replaces `Date`: `Date.now()` and `new Date()` read the real time plus an offset, which the
 * module reads again from a file at most every 50 ms. `set` writes that file, so the server's
 * clock jumps to the given moment and runs on from there at the real pace. The test process and
 * the browser keep the real clock.
 *
 * A test uses it so:
 *
 *     const clock = createFakeClock();
 *     server = await startAppServer({ env: { ...clock.env, SMTP_URL: mail.url } });
 *     await clock.set(Date.parse("2026-11-02T12:00:00Z")); // the server is now there
 *     ...
 *     clock.dispose(); // in afterAll, once the server has stopped
 *
 * `clock.env` sets NODE_OPTIONS (keeping the test's own), so a test that needs more there must
 * append to it rather than replace it. The clock may be set before the server starts.
 */
export interface FakeClock {
  /** What the app server's environment needs for its processes to run on this clock. */
  readonly env: Readonly<Record<string, string>>;
  /** Sets the server's clock to `at` (ms since the epoch), from where it runs on at the real pace. */
  set(at: number): Promise<void>;
  /** Removes the clock's files. */
  dispose(): void;
}

/** How often, at most, the server's processes read the offset file (ms). */
const READ_EVERY_MS = 50;

const CLOCK_MODULE = `
import { readFileSync } from "node:fs";
const file = process.env.E2E_CLOCK_OFFSET_FILE;
const RealDate = globalThis.Date;
let offset = 0;
let readAt = -Infinity;
function shift() {
  const real = RealDate.now();
  if (real - readAt > ${READ_EVERY_MS}) {
    readAt = real;
    try { offset = Number(readFileSync(file, "utf8")) || 0; } catch { offset = 0; }
  }
  return offset;
}
const now = () => RealDate.now() + shift();
globalThis.Date = new Proxy(RealDate, {
  construct: (target, args, newTarget) => Reflect.construct(target, args.length ? args : [now()], newTarget),
  apply: () => new RealDate(now()).toString(),
  get: (target, key, receiver) => (key === "now" ? now : Reflect.get(target, key, receiver)),
});
`;

export function createFakeClock(): FakeClock {
  const dir = mkdtempSync(join(tmpdir(), "charity-steps-clock-"));
  const offsetFile = join(dir, "offset-ms");
  const module = join(dir, "clock.mjs");
  writeFileSync(module, CLOCK_MODULE);
  writeFileSync(offsetFile, "0");
  const nodeOptions = [process.env.NODE_OPTIONS, `--import=${pathToFileURL(module).href}`];
  return {
    env: { NODE_OPTIONS: nodeOptions.filter(Boolean).join(" "), E2E_CLOCK_OFFSET_FILE: offsetFile },
    async set(at) {
      writeFileSync(offsetFile, String(at - Date.now()));
      // Long enough for every process to have read the file again.
      await new Promise((resolve) => setTimeout(resolve, 4 * READ_EVERY_MS));
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * 10:00 in London on Wednesday 18 November 2026: a weekday well inside its month, away from the
 * draw's close on the 3rd, the postal route's 25th and the clocks' changes. Tests that only need a
 * fixed "today" run their clocks there.
 */
export const MID_MONTH_MOMENT = Date.parse("2026-11-18T10:00:00Z");

/**
 * A server moment far ahead of the browser's real clock, for signing up: the sign-in pages' cookies
 * are dated by the server's clock and must outlive the browser's, whatever day the tests run on.
 */
export function signUpMoment(): number {
  return Date.now() + 400 * 86_400_000;
}

/**
 * Runs `signUp` (accounts made, servers started) with the server's clock at `signUpMoment()`, then
 * sets the server's clock to `at`: the sign-in pages' cookies outlive the browser's real clock, and
 * the steps that follow are for `at`'s day. The browsers' clocks are the caller's to set.
 */
export async function signUpAhead<T>(clock: FakeClock, at: number, signUp: () => Promise<T>): Promise<T> {
  await clock.set(signUpMoment());
  const result = await signUp();
  await clock.set(at);
  return result;
}
