// `pnpm test:calendar`: the API's date-sensitive test files, run with the machine's clock set by
// Debian's libfaketime (`apt-get install faketime`) to the London moments where a day, a month, a
// draw or the clocks turn. The clock starts at each moment and runs on, in every process the tests
// start. A test that passes only on some days, or an app that reads a clock its test does not set,
// fails here. On SQLite only: the app takes every time from Node and never reads PostgreSQL's clock
// (which faketime would not move anyway), and `pnpm test` runs the same files on both databases.
// CALENDAR_JOBS: moments run at once.
import { spawn, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const api = join(dirname(fileURLToPath(import.meta.url)), "..", "api");

/** Chosen by what they touch: each takes or answers a day, a month or a moment. */
const FILES = [
  // The routes that take a day or a month (syncs, entries, resets, draws, postal entries).
  "test/hostile/authorisation-matrix.test.ts",
  // A postal entry's month and its closing day, the 25th.
  "test/routes/api/operator/postal-entries-and-audit-log.test.ts",
  // A month's close at 12:00 on the 3rd, claims' 14 days, redraws.
  "test/draws/draws.test.ts",
  "test/draws/draw-run.test.ts",
  // The 30-day window of a sync's day, and resets.
  "test/routes/api/steps/sync.test.ts",
  // Which London day a sync around midnight and the clock changes lands on.
  "test/routes/api/steps/london-days.test.ts",
  // Steps above the pace since the day's first reading.
  "test/ledger/pace-rule.test.ts",
  // Sessions' expiry.
  "test/auth/sessions.test.ts",
  // Runs of days on goal across clock changes and month ends.
  "test/routes/api/dashboard/streaks.test.ts",
  // A week's days, and Monday's mail of it from 07:00.
  "test/routes/api/summary/week.test.ts",
  "test/notifications/weekly-summaries.test.ts",
  // Quiet hours, the daily cap of pushes and the streak reminder, all in London's time.
  "test/routes/api/notifications/notifications.test.ts",
];
/** The matrix's routes that take or answer a day or a month: syncs, entries, resets, draws, postal entries. */
const MATRIX_ROUTES =
  "/api/(steps/sync|steps/add-manual|daily-reset|monthly-reset|health/apple-health|draws|operator/draws|operator/postal-entries)";

/**
 * Each moment as London's clocks read it, and the instant (UTC) the machine's clock is set to.
 * On 29 March 2026 London's clocks go from 01:00 GMT to 02:00 BST, so 01:30 does not exist that
 * night: 01:30 UTC is taken, half an hour after the change (02:30 BST), as 00:30 is half an hour
 * before it. On 25 October 2026 they go back from 02:00 BST to 01:00 GMT, so 01:30 comes twice:
 * the second, 01:30 GMT, is taken, half an hour after the change.
 */
const MOMENTS = [
  { name: "the 26th, 10:00", london: "Thu 26 Nov 2026 10:00 GMT", utc: "2026-11-26T10:00:00Z" },
  { name: "the 1st, 00:30", london: "Wed 1 Jul 2026 00:30 BST", utc: "2026-06-30T23:30:00Z" },
  { name: "the 3rd, 11:59", london: "Mon 3 Aug 2026 11:59 BST", utc: "2026-08-03T10:59:00Z" },
  { name: "the 3rd, 12:01", london: "Mon 3 Aug 2026 12:01 BST", utc: "2026-08-03T11:01:00Z" },
  { name: "clocks forward, 00:30", london: "Sun 29 Mar 2026 00:30 GMT", utc: "2026-03-29T00:30:00Z" },
  { name: "clocks forward, 01:30", london: "Sun 29 Mar 2026 02:30 BST", utc: "2026-03-29T01:30:00Z" },
  { name: "clocks back, 00:30", london: "Sun 25 Oct 2026 00:30 BST", utc: "2026-10-24T23:30:00Z" },
  { name: "clocks back, 01:30", london: "Sun 25 Oct 2026 01:30 GMT", utc: "2026-10-25T01:30:00Z" },
  { name: "31 December, 23:59", london: "Thu 31 Dec 2026 23:59 GMT", utc: "2026-12-31T23:59:00Z" },
];

/**
 * `command` under faketime starting at `utc` and running on. libfaketime reads the start in the
 * local zone, hence TZ=UTC; child processes (vitest's workers, the API processes a test starts)
 * carry on the same clock instead of starting it again; timers keep the real monotonic clock.
 */
function underFaketime(utc, command, options) {
  const start = `@${utc.slice(0, 10)} ${utc.slice(11, 19)}`;
  const env = {
    ...process.env,
    TZ: "UTC",
    FAKETIME_DONT_RESET: "1",
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
    NO_COLOR: "1",
    MATRIX_ROUTES,
    // None of FILES starts an API process: the run need not bundle the server for one.
    API_TEST_PROCESSES: "none",
  };
  delete env.TEST_DATABASE_URL;
  return [["-m", "-f", start, ...command], { ...options, env }];
}

// Node must see the moment, or every run below would prove nothing.
const probe = MOMENTS[0].utc;
const seen = spawnSync(
  "faketime",
  ...underFaketime(probe, [process.execPath, "-e", "process.stdout.write(String(Date.now()))"], {
    encoding: "utf8",
  }),
);
if (seen.error || seen.status !== 0) {
  console.error(`faketime did not run (apt-get install faketime): ${seen.error?.message ?? seen.stderr}`);
  process.exit(1);
}
const lag = Number(seen.stdout) - Date.parse(probe);
if (!(lag >= 0 && lag < 60_000)) {
  console.error(`Node under faketime read ${new Date(Number(seen.stdout)).toISOString()}, not ${probe}`);
  process.exit(1);
}

function runMoment(moment) {
  const vitest = join(api, "node_modules", ".bin", "vitest");
  const started = Date.now();
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(
      "faketime",
      ...underFaketime(moment.utc, [vitest, "run", "--maxWorkers=1", ...FILES], {
        cwd: api,
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    const keep = (chunk) => {
      output += chunk;
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("close", (code) => {
      resolve({ moment, ok: code === 0, seconds: (Date.now() - started) / 1000, output });
    });
  });
}

const jobs = Math.max(1, Number(process.env.CALENDAR_JOBS ?? 2));
console.log(
  `test:calendar: ${FILES.length} API test files on SQLite, at ${MOMENTS.length} London moments, ${jobs} at a time`,
);
const started = Date.now();
const queue = [...MOMENTS];
const results = [];
await Promise.all(
  Array.from({ length: jobs }, async () => {
    for (let moment = queue.shift(); moment; moment = queue.shift()) {
      const result = await runMoment(moment);
      results.push(result);
      const { name, london, utc } = moment;
      const verdict = result.ok ? "pass" : "FAIL";
      console.log(
        `${verdict}  ${name.padEnd(22)} ${london.padEnd(26)} ${utc}  ${result.seconds.toFixed(0)} s`,
      );
      if (!result.ok) console.log(result.output.trimEnd().split("\n").slice(-80).join("\n"));
    }
  }),
);
const failed = results.filter((result) => !result.ok).length;
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(`test:calendar: ${results.length - failed} of ${results.length} moments passed in ${seconds} s`);
process.exit(failed === 0 ? 0 : 1);
