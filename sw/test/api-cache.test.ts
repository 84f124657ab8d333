import { describe, expect, it } from "vitest";
import { isCachedApiRead, isSaveAnsweringItsRead } from "../src/api-cache-rules";

const origin = "https://steps.example";
const read = (path: string, method = "GET", at = origin) =>
  isCachedApiRead(new URL(path, at), origin, method);

describe("which API answers the worker keeps for offline", () => {
  it("keeps the screens' reads", () => {
    for (const path of [
      "/api/dashboard/stats",
      "/api/steps/history",
      "/api/groups",
      "/api/groups/7/leaderboard",
      "/api/charity/selection",
    ]) {
      expect(read(path), path).toBe(true);
    }
  });

  it("never keeps writes, sign-in, who is signed in, any photo, anything an operator reads, or other sites", () => {
    expect(read("/api/steps/photos/0b6f9a52-7d0e-4c53-9d42-1c2f0e4b8a11")).toBe(false);
    expect(read("/api/account/export")).toBe(false);
    expect(read("/api/operator/reviews")).toBe(false);
    expect(read("/api/operator/reviews/r-1/photo")).toBe(false);
    expect(read("/api/operator/postal-entries?month=2026-11")).toBe(false);
    expect(read("/api/operator/draws/2026-10")).toBe(false);
    expect(read("/api/groups/7/photo")).toBe(false);
    expect(read("/api/steps/sync", "POST")).toBe(false);
    expect(read("/api/auth/user")).toBe(false);
    expect(read("/api/login")).toBe(false);
    expect(read("/api/logout")).toBe(false);
    expect(read("/api/callback")).toBe(false);
    expect(read("/dashboard")).toBe(false);
    expect(read("/api/groups", "GET", "https://elsewhere.example")).toBe(false);
  });
});

describe("which saves the worker keeps as their read's copy", () => {
  const save = (path: string, method = "PUT", at = origin) =>
    isSaveAnsweringItsRead(new URL(path, at), origin, method);

  it("keeps the answers of the walker's settings and notification preferences", () => {
    expect(save("/api/account/preferences")).toBe(true);
    expect(save("/api/notifications/preferences")).toBe(true);
  });

  it("keeps no other save, no other method, and nothing from another site", () => {
    expect(save("/api/account/preferences", "POST")).toBe(false);
    expect(save("/api/account/preferences", "GET")).toBe(false);
    expect(save("/api/charity/select", "POST")).toBe(false);
    expect(save("/api/steps/sync", "PUT")).toBe(false);
    expect(save("/api/account/preferences", "PUT", "https://elsewhere.example")).toBe(false);
  });
});
