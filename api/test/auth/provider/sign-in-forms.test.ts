import http from "node:http";
import https from "node:https";
import { describe, expect, it, vi } from "vitest";
import { PASSWORD_MAX_LENGTH } from "../../../src/auth/passwords.js";
import { signUpProblem } from "../../../src/auth/provider/validation.js";

const walker = { firstName: "Ada", lastName: "Walker", email: "ada@example.org" };

describe("the sign-up form's checks", () => {
  it("accepts a complete form with a good password", async () => {
    expect(await signUpProblem(walker, "long-walks-2026")).toBeNull();
  });

  it.each([
    [{ ...walker, firstName: "" }, "Enter your first name and last name."],
    [{ ...walker, lastName: "" }, "Enter your first name and last name."],
    [{ ...walker, lastName: "W".repeat(101) }, "Names can be at most 100 characters long."],
    [{ ...walker, email: "ada@example" }, "Enter a valid email address, like name@example.com."],
    [
      { ...walker, email: `${"a".repeat(250)}@example.org` },
      "Enter a valid email address, like name@example.com.",
    ],
  ])("answers %o with a sentence for the page", async (values, problem) => {
    expect(await signUpProblem(values, "long-walks-2026")).toBe(problem);
  });

  it("leaves the password's strength to the password rules", async () => {
    expect(await signUpProblem(walker, "walk1")).toMatch(/at least 8 characters/);
  });

  it.each(["password2", "12341234", "qwerty12", "iloveyou2", "sunshine", "abcdefgh", "Walker2026"])(
    "refuses %s: common, breached, a pattern, or the walker's own name",
    async (password) => {
      expect(await signUpProblem(walker, password)).toMatch(/^Your password is too easy to guess\./);
    },
  );

  it("takes any characters up to 200, and says so past it", async () => {
    expect(PASSWORD_MAX_LENGTH).toBe(200);
    // A long phrase of any script, emoji included: its length is what the rule counts.
    const phrase = "marcher à Édimbourg 🥾 歩く walk ".repeat(20);
    const longest = phrase.slice(0, PASSWORD_MAX_LENGTH);
    expect(longest).toHaveLength(200);
    expect(await signUpProblem(walker, longest)).toBeNull();
    expect(await signUpProblem(walker, `${longest}x`)).toBe(
      "Your password is too long: use at most 200 characters.",
    );
  });

  it("judges a password with the lists shipped in the package, asking nothing of the network", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    const request = vi.spyOn(http, "request");
    const secureRequest = vi.spyOn(https, "request");
    try {
      // A fresh copy of the rules, which loads its lists now, while the network is watched.
      vi.resetModules();
      const fresh = await import("../../../src/auth/provider/validation.js");
      expect(await fresh.signUpProblem(walker, "qwerty12")).toMatch(/^Your password is too easy to guess\./);
      expect(await fresh.signUpProblem(walker, "steps-for-charity-2026")).toBeNull();
      expect(fetch).not.toHaveBeenCalled();
      expect(request).not.toHaveBeenCalled();
      expect(secureRequest).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it.each(["long-walks-2026", "my dog walks far", "Tr0ub4dor&3", "steps-for-charity-2026"])(
    "accepts %s",
    async (password) => {
      expect(await signUpProblem(walker, password)).toBeNull();
    },
  );
});
