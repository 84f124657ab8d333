import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readHeelStrikes } from "../../src/cli/walk-recordings.js";

const scratch = mkdtempSync(join(tmpdir(), "walk-recordings-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An optimisation folder whose heel sensors read `states` (foot1foot2 per sample, 100 ms apart). */
function recording(name: string, states: string[]): string {
  const folder = join(scratch, name);
  mkdirSync(folder);
  writeFileSync(join(folder, "accelerometer.csv"), "0,3,0,0,9.8\n");
  const rows = states.map((pair, i) => `${(i + 1) * 100_000_000},${pair[0]},${pair[1]}`);
  writeFileSync(join(folder, "stepcounter.csv"), `${rows.join("\n")}\n`);
  return folder;
}

describe("heel strikes from the foot sensors", () => {
  it("counts each heel pressed again after it was off the floor, both feet, in time order", () => {
    // Both feet down, then the left lifts and strikes, then the right, then the left again.
    const strikes = readHeelStrikes(
      recording("walk", ["11", "01", "01", "11", "10", "10", "11", "01", "01", "11"]),
    );
    expect(strikes).toEqual([400, 700, 1000]);
  });

  it("does not count a heel that reads released for a single sample between two presses", () => {
    // The left heel chatters (1, 0, 1) while it is down; that is one strike, not two.
    const strikes = readHeelStrikes(
      recording("chatter", ["11", "01", "01", "11", "01", "11", "10", "10", "11"]),
    );
    expect(strikes).toEqual([400, 900]);
  });

  it("has nothing to say about a recording without foot sensor states", () => {
    const file = join(scratch, "validation.csv");
    writeFileSync(file, "1,0,0,9.8,0,0,0\n");
    expect(readHeelStrikes(file)).toBeNull();
  });
});
