import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** The machine's CPU time so far (all cores, in clock ticks): busy, and in all. Null off Linux. */
function cpuTicks(): { busy: number; total: number } | null {
  try {
    const [line] = readFileSync("/proc/stat", "utf8").split("\n");
    // cpu user nice system idle iowait irq softirq steal …
    const ticks = (line ?? "").trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((sum, tick) => sum + tick, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return Number.isFinite(total) && total > 0 ? { busy: total - idle, total } : null;
  } catch {
    return null;
  }
}

/**
 * Waits until the machine has been quiet (under `busyBelow` of its CPU in use, each second, for
 * `seconds` seconds in a row), or `maxSeconds` have passed: what a group before left running (its
 * servers' exit, PostgreSQL dropping a database of a million rows) would otherwise be counted
 * against the next group's figures. Says how long it waited and how busy the machine was.
 */
export async function waitForQuietMachine({
  busyBelow = 0.15,
  seconds = 3,
  maxSeconds = 60,
} = {}): Promise<string> {
  const started = Date.now();
  let quietSeconds = 0;
  let last = cpuTicks();
  if (!last) return "not checked (no /proc/stat)";
  let busy = 1;
  while (quietSeconds < seconds) {
    if (Date.now() - started > maxSeconds * 1000) {
      return `still ${Math.round(busy * 100)}% busy after ${maxSeconds} s; measured anyway`;
    }
    await sleep(1000);
    const now = cpuTicks();
    if (!now) return "not checked (no /proc/stat)";
    busy = (now.busy - last.busy) / Math.max(1, now.total - last.total);
    last = now;
    quietSeconds = busy < busyBelow ? quietSeconds + 1 : 0;
  }
  return `quiet (${Math.round(busy * 100)}% busy) after ${((Date.now() - started) / 1000).toFixed(0)} s`;
}
