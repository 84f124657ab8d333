import { shiftDate } from "../support/shifted-date.js";

/**
 * Preloaded (node --import) into each API process a test starts: the process's Date runs
 * TEST_CLOCK_OFFSET_MS away from the machine's, as the test's own does (useTestClock), so that
 * the process's London today is the test's, whatever the day the tests run.
 */
const offsetMs = Number(process.env.TEST_CLOCK_OFFSET_MS ?? "0");
if (Number.isFinite(offsetMs) && offsetMs !== 0) shiftDate(offsetMs);
