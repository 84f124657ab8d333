import { describe, expect, it } from "vitest";
import { groupIdFromPath } from "./group-id";

describe("the group id in a group's address", () => {
  it("is the last path segment", () => {
    expect(groupIdFromPath("/groups/42")).toBe(42);
    expect(groupIdFromPath("/groups/42/")).toBe(42);
  });

  it("is 0 (nothing to load) for addresses that name no group", () => {
    expect(groupIdFromPath("/groups/0")).toBe(0);
    expect(groupIdFromPath("/groups/abc")).toBe(0);
    expect(groupIdFromPath("/groups/-3")).toBe(0);
    expect(groupIdFromPath("/groups/1.5")).toBe(0);
    expect(groupIdFromPath("/groups/99999999999999999999")).toBe(0);
  });
});
