import { describe, expect, it } from "vitest";
import { parseGroupId } from "../../../src/features/groups/group-id";

describe("the group id in a group's address", () => {
  it("is the number the address names", () => {
    expect(parseGroupId("42")).toBe(42);
  });

  it("is 0 (nothing to load) for addresses that name no group", () => {
    expect(parseGroupId(undefined)).toBe(0);
    expect(parseGroupId("0")).toBe(0);
    expect(parseGroupId("abc")).toBe(0);
    expect(parseGroupId("-3")).toBe(0);
    expect(parseGroupId("1.5")).toBe(0);
    expect(parseGroupId("99999999999999999999")).toBe(0);
  });
});
