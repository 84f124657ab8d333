import { MANUAL_IMAGE_MAX_BYTES } from "@charity-steps/shared-types";
import { describe, expect, it } from "vitest";
import {
  noteProblem,
  PROBLEMS,
  photoProblem,
  stepsProblem,
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
  ])("steps %j → %o", (value, problem) => {
    expect(stepsProblem(value)).toEqual(problem);
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
  });
});
