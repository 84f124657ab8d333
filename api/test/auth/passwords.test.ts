import { describe, expect, it } from "vitest";
import { PasswordHasher } from "../../src/auth/passwords.js";

describe("password hashes", () => {
  it("are scrypt at N=2^15, r=8, p=1 by default, with a salt of their own", async () => {
    const hasher = new PasswordHasher();
    const first = await hasher.hash("long-walks-2026");
    const second = await hasher.hash("long-walks-2026");
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(second).not.toBe(first);
    expect(await hasher.verify("long-walks-2026", first)).toBe(true);
    expect(await hasher.verify("long-walks-2027", first)).toBe(false);
  });

  it("keep the cost they were made with, so a changed cost breaks no password", async () => {
    const cheap = await new PasswordHasher(10).hash("long-walks-2026");
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await new PasswordHasher(15).verify("long-walks-2026", cheap)).toBe(true);
    const costly = await new PasswordHasher(16).hash("long-walks-2026");
    expect(await new PasswordHasher(10).verify("long-walks-2026", costly)).toBe(true);
  });

  it("refuse an unknown account after checking a dummy hash, and a stored value that is not a hash", async () => {
    const hasher = new PasswordHasher(10);
    expect(await hasher.verifyAccountPassword("long-walks-2026", undefined)).toBe(false);
    expect(await hasher.verify("long-walks-2026", "plain-text")).toBe(false);
  });
});
