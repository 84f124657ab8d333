import { describe, expect, it } from "vitest";
import { groupBy } from "../src/collections.js";

describe("groupBy", () => {
  it("groups items by key in the order the rows come, each row made into its item", () => {
    const rows = [
      { walker: "b", day: "2026-11-02", steps: 900 },
      { walker: "a", day: "2026-11-01", steps: 100 },
      { walker: "b", day: "2026-11-03", steps: 700 },
    ];
    const grouped = groupBy(
      rows,
      (row) => row.walker,
      (row) => [row.day, row.steps] as const,
    );
    expect([...grouped.keys()]).toEqual(["b", "a"]);
    expect(grouped.get("b")).toEqual([
      ["2026-11-02", 900],
      ["2026-11-03", 700],
    ]);
    expect(grouped.get("a")).toEqual([["2026-11-01", 100]]);
  });

  it("leaves out a key with no rows", () => {
    expect(groupBy([], String, String).size).toBe(0);
  });
});
