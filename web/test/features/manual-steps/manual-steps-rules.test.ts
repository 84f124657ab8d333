import { MANUAL_IMAGE_MAX_BYTES } from "@charity-steps/shared-types";
import { describe, expect, it } from "vitest";
import {
  dateProblem,
  noteProblem,
  PROBLEMS,
  photoProblem,
  stepsProblem,
  stepsTyped,
} from "../../../src/features/manual-steps/manual-steps-rules";

describe("manual steps form rules", () => {
  it.each([
    ["0", PROBLEMS.invalidSteps],
    ["-5", PROBLEMS.invalidSteps],
    ["abc", PROBLEMS.invalidSteps],
    ["12.5", PROBLEMS.invalidSteps],
    ["", PROBLEMS.invalidSteps],
    ["50001", PROBLEMS.tooManySteps],
    ["1", null],
    [" 50000 ", null],
    // Written as the app writes numbers.
    ["6,500", null],
    ["50,000", null],
    ["50,001", PROBLEMS.tooManySteps],
    ["6,50", PROBLEMS.invalidSteps],
    ["65,00", PROBLEMS.invalidSteps],
    [",500", PROBLEMS.invalidSteps],
    ["0,500", PROBLEMS.invalidSteps],
  ])("steps %j → %o", (value, problem) => {
    expect(stepsProblem(value)).toEqual(problem);
  });

  it("reads the steps with or without commas between the thousands", () => {
    expect(stepsTyped("6,500")).toBe(6_500);
    expect(stepsTyped(" 12,345 ")).toBe(12_345);
    expect(stepsTyped("4000")).toBe(4_000);
    expect(stepsTyped("4 000")).toBeNull();
  });

  it("takes a day from 30 days ago to today, and says in words why it refuses another", () => {
    expect(dateProblem("2026-11-21", "2026-11-21")).toBeNull();
    expect(dateProblem("2026-10-22", "2026-11-21")).toBeNull();
    expect(dateProblem("2026-11-22", "2026-11-21")).toEqual({
      title: "Invalid Date",
      description: "Sun, 22 Nov 2026 is in the future: steps can only be added for today or earlier.",
    });
    expect(dateProblem("2026-10-21", "2026-11-21")?.description).toBe(
      "Wed, 21 Oct 2026 is more than 30 days ago: steps can only be added for the last 30 days.",
    );
    expect(dateProblem("", "2026-11-21")).toEqual(PROBLEMS.invalidDate);
  });

  it("needs an image file under 5MB", () => {
    expect(photoProblem(null)).toEqual(PROBLEMS.imageRequired);
    expect(photoProblem(new File(["hi"], "notes.txt", { type: "text/plain" }))).toEqual(
      PROBLEMS.invalidFileType,
    );
    const big = new File([new Uint8Array(MANUAL_IMAGE_MAX_BYTES + 1)], "big.png", { type: "image/png" });
    expect(photoProblem(big)).toEqual(PROBLEMS.fileTooLarge);
    expect(photoProblem(new File([new Uint8Array(10)], "ok.png", { type: "image/png" }))).toBeNull();
  });

  it("takes a note of up to 500 characters once trimmed", () => {
    expect(noteProblem(` ${"a".repeat(500)} `)).toBeNull();
    expect(noteProblem("a".repeat(501))).toEqual(PROBLEMS.noteTooLong);
    // Counted in characters, as the server counts: 500 emoji are 1,000 UTF-16 units.
    expect(noteProblem("\u{1F6B6}".repeat(500))).toBeNull();
    expect(noteProblem("\u{1F6B6}".repeat(501))).toEqual(PROBLEMS.noteTooLong);
  });
});
