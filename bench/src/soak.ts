/**
 * `pnpm soak`: a bounded soak of mixed traffic from a few hundred simulated walkers
 * against one API process (compiled, production flags, SQLite): syncs, reads, the dashboard, a group
 * leaderboard and charity changes, for `--seconds` (default 120). It prints what it did and fails
 * on any error or non-2xx answer, or when memory grows beyond the stated bound.
 */
import { fileURLToPath } from "node:url";
import { CHARITY_NAMES } from "@charity-steps/shared-types";
import autocannon from "autocannon";
import { sqliteDatabase } from "./api/databases.js";
import { pick, type Request, syncRequests } from "./api/load.js";
import { residentMegabytes, startServer } from "./api/server-process.js";

const WALKERS = 300;
const CONNECTIONS = 50;
/** Resident memory may not pass this, and the heap after a full GC may not grow more than 10%. */
const RSS_LIMIT_MB = 200;
const HEAP_GROWTH_LIMIT = 1.1;

const root = fileURLToPath(new URL("../..", import.meta.url));
const seconds = Number(process.argv.find((arg) => arg.startsWith("--seconds="))?.slice(10) ?? 120);

const database = sqliteDatabase();
const server = await startServer(root, {
  kind: "app",
  databaseUrl: database.url,
  plan: { walkers: WALKERS, sessions: WALKERS, historyRows: 0, monthDays: 20, groups: [100] },
});
const groupId = server.groups[100];
const sync = syncRequests(server.cookies);
const read =
  (path: string) =>
  (random: () => number): Request => ({
    method: "GET",
    path,
    headers: { cookie: pick(server.cookies, random) },
  });
/** What a walker's app sends, in about the proportions it sends them. */
const mix: [number, (random: () => number) => Request][] = [
  [50, sync],
  [10, read("/api/steps/today")],
  [8, read("/api/steps/monthly")],
  [5, read("/api/steps/history")],
  [12, read("/api/dashboard/stats")],
  [5, read("/api/groups")],
  // Only group members may read it: walker 0…99 are the members of the group of 100.
  [
    5,
    (random) => ({
      method: "GET",
      path: `/api/groups/${groupId}/leaderboard`,
      headers: { cookie: pick(server.cookies.slice(0, 100), random) },
    }),
  ],
  [
    5,
    (random) => ({
      method: "POST",
      path: "/api/charity/select",
      headers: { cookie: pick(server.cookies, random), "content-type": "application/json" },
      body: JSON.stringify({ charityName: pick(CHARITY_NAMES, random) }),
    }),
  ],
];
const totalWeight = mix.reduce((sum, [weight]) => sum + weight, 0);
const next = (random: () => number): Request => {
  let roll = random() * totalWeight;
  for (const [weight, make] of mix) {
    roll -= weight;
    if (roll < 0) return make(random);
  }
  return sync(random);
};

const samples: number[] = [];
const timer = setInterval(() => samples.push(residentMegabytes(server.pid) ?? 0), 1000);
let heapEarly = 0;
const early = setTimeout(
  async () => {
    heapEarly = await server.heap();
  },
  Math.min(30_000, (seconds * 1000) / 4),
);
console.log(`soak: ${seconds} s of mixed traffic from ${WALKERS} walkers over ${CONNECTIONS} connections…`);
const result = await autocannon({
  url: `http://127.0.0.1:${server.port}`,
  connections: CONNECTIONS,
  duration: seconds,
  requests: [{ setupRequest: (request) => ({ ...request, ...next(Math.random) }) }],
});
clearInterval(timer);
clearTimeout(early);
const heapEnd = await server.heap();
await server.stop();
await database.drop();

const errors = result.errors + result.timeouts;
const quarter = Math.max(1, Math.floor(samples.length / 4));
const average = (values: number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const rssFirst = average(samples.slice(quarter, quarter * 2));
const rssLast = average(samples.slice(-quarter));
const rssPeak = Math.max(...samples);
const heapGrowth = heapEarly > 0 ? heapEnd / heapEarly : 1;
const lines = [
  `requests: ${result.requests.total} (${result.requests.average.toFixed(0)} req/s), p99 ${result.latency.p99} ms`,
  `errors: ${errors}, non-2xx: ${result.non2xx}`,
  `resident memory: peak ${rssPeak.toFixed(0)} MB (limit ${RSS_LIMIT_MB}), second quarter ${rssFirst.toFixed(0)} MB, last quarter ${rssLast.toFixed(0)} MB`,
  `heap after a full GC: ${heapEarly.toFixed(1)} MB early, ${heapEnd.toFixed(1)} MB at the end (${((heapGrowth - 1) * 100).toFixed(0)}%, limit +${((HEAP_GROWTH_LIMIT - 1) * 100).toFixed(0)}%)`,
];
console.log(lines.map((line) => `  ${line}`).join("\n"));
const failures = [
  errors > 0 && "errors",
  result.non2xx > 0 && "non-2xx answers",
  rssPeak > RSS_LIMIT_MB && "resident memory over its limit",
  heapGrowth > HEAP_GROWTH_LIMIT && "heap growth",
].filter(Boolean);
if (failures.length > 0) {
  console.log(`soak FAILED: ${failures.join(", ")}`);
  process.exitCode = 1;
} else {
  console.log("soak passed");
}
