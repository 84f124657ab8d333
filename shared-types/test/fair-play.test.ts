import { describe, expect, it } from "vitest";
import {
  DAY_PRIZE_CEILING_STEPS,
  type FairPlayCounter,
  type FairPlayDayInput,
  fairPlayDay,
  isLateDay,
  LATE_DAY_STEPS_AT_ONCE,
  LATE_DAYS_AT_ONCE_PER_MONTH,
  londonDayStart,
} from "../src/index.js";

const device = (steps: number, createdAt: number | null = 1, counterId = "device:a"): FairPlayCounter => ({
  kind: "motion",
  steps,
  pendingSteps: 0,
  rejectedSteps: 0,
  createdAt,
  counterId,
});

const day = (input: Partial<FairPlayDayInput>): FairPlayDayInput => ({
  counters: [],
  manualApproved: 0,
  manualPending: 0,
  late: false,
  lateRank: 0,
  approvedDaySteps: 0,
  rejectedDaySteps: 0,
  ...input,
});

describe("the day rules of fair play", () => {
  it("counts a day on time up to the ceiling at once, and holds what is above it", () => {
    expect(fairPlayDay(day({ counters: [device(12_000)] }))).toEqual({
      eligible: 12_000,
      pending: 0,
      dayHeld: 0,
      reasons: [],
    });
    expect(fairPlayDay(day({ counters: [device(45_000)] }))).toEqual({
      eligible: DAY_PRIZE_CEILING_STEPS,
      pending: 45_000 - DAY_PRIZE_CEILING_STEPS,
      dayHeld: 45_000 - DAY_PRIZE_CEILING_STEPS,
      reasons: ["day-ceiling"],
    });
  });

  it("puts approved manual entries on top of the ceiling, within the daily cap", () => {
    const result = fairPlayDay(day({ counters: [device(40_000)], manualApproved: 5_000 }));
    expect(result.eligible).toBe(DAY_PRIZE_CEILING_STEPS + 5_000);
    expect(result.pending).toBe(10_000);
  });

  it("counts a late day's first 10,000 at once, and none of a month's late days after the first 7", () => {
    const late = fairPlayDay(day({ counters: [device(50_000)], late: true, lateRank: 1 }));
    expect(late).toEqual({
      eligible: LATE_DAY_STEPS_AT_ONCE,
      pending: 50_000 - LATE_DAY_STEPS_AT_ONCE,
      dayHeld: 50_000 - LATE_DAY_STEPS_AT_ONCE,
      reasons: ["late-day"],
    });
    const eighth = fairPlayDay(
      day({ counters: [device(5_000)], late: true, lateRank: LATE_DAYS_AT_ONCE_PER_MONTH + 1 }),
    );
    expect(eighth).toEqual({ eligible: 0, pending: 5_000, dayHeld: 5_000, reasons: ["late-days-over"] });
  });

  it("counts the first 3 devices of the day at once, by when each was first seen", () => {
    const counters = [
      device(1_000, 5, "device:e"),
      device(1_000, 1, "device:a"),
      device(1_000, 3, "device:c"),
      device(700, 2, "device:b"),
      device(1_000, 4, "device:d"),
    ];
    expect(fairPlayDay(day({ counters }))).toEqual({
      eligible: 2_700,
      pending: 2_000,
      dayHeld: 2_000,
      reasons: ["devices-over"],
    });
  });

  it("counts what an operator approved, and leaves out what they turned down, weighing later steps again", () => {
    const input = day({ counters: [device(30_000)], late: true, lateRank: 1 });
    expect(fairPlayDay({ ...input, approvedDaySteps: 20_000 })).toMatchObject({
      eligible: 30_000,
      pending: 0,
    });
    expect(fairPlayDay({ ...input, rejectedDaySteps: 20_000 })).toMatchObject({
      eligible: LATE_DAY_STEPS_AT_ONCE,
      pending: 0,
      dayHeld: 0,
    });
    // 3,000 more after 20,000 were approved: those wait.
    const later = fairPlayDay({ ...input, counters: [device(33_000)], approvedDaySteps: 20_000 });
    expect(later).toMatchObject({ eligible: 30_000, pending: 3_000, dayHeld: 3_000 });
  });

  it("leaves the pace rule's held steps to their own review", () => {
    const paced = { ...device(20_000), pendingSteps: 5_000 };
    expect(fairPlayDay(day({ counters: [paced] }))).toEqual({
      eligible: 15_000,
      pending: 5_000,
      dayHeld: 0,
      reasons: [],
    });
  });

  it("takes a day for late when its first reading came more than 36 hours after it ended (London)", () => {
    const ended = londonDayStart("2026-11-03");
    expect(isLateDay("2026-11-02", ended + 36 * 3_600_000)).toBe(false);
    expect(isLateDay("2026-11-02", ended + 36 * 3_600_000 + 1)).toBe(true);
    expect(isLateDay("2026-11-02", null)).toBe(false);
  });
});
