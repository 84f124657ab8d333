/**
 * The monthly prize draw at scale: closing a month (counting every walker's tickets), running the
 * draw, and building the public ticket list, on a SQLite file seeded with a month of walkers. These
 * happen once a month, but the close runs inside whichever step sync first arrives after it, so it
 * must stay a matter of seconds, and the ticket list is held in memory while it is served.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, loadConfig } from "@charity-steps/api";
import { addMonths, drawClosesAt, londonMonth } from "@charity-steps/shared-types";
import { type BenchContext, bounded, type Figure } from "./figure.js";

/** Steps each walker walked: 5 tickets each (one per 10,000). */
const STEPS_EACH = 55_000;
const BATCH = 500;

export async function measureDraw({ quick }: BenchContext): Promise<Figure[]> {
  const walkers = quick ? 500 : 20_000;
  const dataDir = mkdtempSync(join(tmpdir(), "charity-steps-draw-bench-"));
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      PUBLIC_URL: "http://127.0.0.1:1",
      WEB_DIST_DIR: "none",
      LOG_LEVEL: "silent",
      DRAW_AUTO_RUN: "false",
    }),
    { logger: false, drawTickMs: null },
  );
  try {
    const month = addMonths(londonMonth(), -2);
    const opened = Date.parse(`${month}-01T12:00:00Z`);
    await app.services.draws.draw(month, opened);
    const { db } = app.database;
    for (let first = 0; first < walkers; first += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, walkers - first) }, () =>
        randomBytes(8).toString("hex"),
      );
      await db
        .insertInto("users")
        .values(
          ids.map((id) => ({
            id,
            issuer: "https://bench.invalid",
            subject: id,
            email: `${id}@bench.invalid`,
            first_name: "Bench",
            last_name: "Walker",
            profile_image_url: null,
            charity_name: null,
            email_verified_at: opened,
            created_at: opened,
            updated_at: opened,
          })),
        )
        .execute();
      await db
        .insertInto("step_months")
        .values(
          ids.map((id) => ({
            user_id: id,
            month,
            total_steps: STEPS_EACH,
            last_day: `${month}-28`,
            last_day_steps: 5_000,
            updated_at: opened,
          })),
        )
        .execute();
    }

    const after = drawClosesAt(month).getTime() + 60_000;
    const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
      const start = performance.now();
      const result = await work();
      return [result, (performance.now() - start) / 1000];
    };
    const [, closeSeconds] = await timed(() => app.services.draws.close(month, after));
    const [run, runSeconds] = await timed(() => app.services.draws.run(month, null, after));
    const heapBefore = process.memoryUsage().heapUsed;
    const [list, listSeconds] = await timed(() => app.services.draws.ticketList(month));
    const listMb = Buffer.byteLength(list ?? "") / 1_000_000;
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1_000_000;
    const tickets = run.results.ticketCount ?? 0;
    const note = `${walkers.toLocaleString("en-GB")} walkers, ${tickets.toLocaleString("en-GB")} tickets (SQLite)`;
    return [
      bounded(
        { name: "draw: close a month (count tickets)", value: closeSeconds, unit: "s", limit: 10, note },
        quick,
      ),
      bounded({ name: "draw: run (pick 9 winners)", value: runSeconds, unit: "s", limit: 2, note }, quick),
      bounded(
        {
          name: "draw: build the public ticket list",
          value: listSeconds,
          unit: "s",
          limit: 1,
          note: `${listMb.toFixed(1)} MB of text, heap +${heapMb.toFixed(0)} MB while kept for serving`,
        },
        quick,
      ),
    ];
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
