import { describe, expect, it } from "vitest";
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

  it.each(["long-walks-2026", "my dog walks far", "Tr0ub4dor&3", "steps-for-charity-2026"])(
    "accepts %s",
    async (password) => {
      expect(await signUpProblem(walker, password)).toBeNull();
    },
  );
});
