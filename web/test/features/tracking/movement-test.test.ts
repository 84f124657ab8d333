import { describe, expect, it } from "vitest";
import { toastMovementTest } from "../../../src/features/tracking/tracking-toasts";
import { useToastStore } from "../../../src/lib/toast-store";

const shown = () => {
  const { title, description } = useToastStore.getState().current ?? {};
  return { title, description };
};

describe("Test Movement", () => {
  it("says whether readings arrive, and whether they show the phone moving", () => {
    toastMovementTest([], "granted");
    expect(shown()).toEqual({
      title: "No Readings Arrived",
      description: "This device isn't sending motion readings, so steps won't be counted here.",
    });
    toastMovementTest([], "denied");
    expect(shown().description).toBe("Motion sensors are not available here, or permission was not granted.");

    // A phone lying on a table: gravity, and a little noise.
    toastMovementTest([9.8, 9.81, 9.83, 9.79], "granted");
    expect(shown()).toEqual({
      title: "Readings Arriving, No Movement",
      description: "The sensors work, but your phone was still. Move it during the test to see movement.",
    });

    // Steps: the strength swings by metres a second squared.
    toastMovementTest([9.8, 12.6, 7.1, 11.9], "granted");
    expect(shown()).toEqual({
      title: "Movement Detected",
      description: "Readings are arriving, and they show your phone moving.",
    });
  });
});
