import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  FAIR_PLAY_MESSAGES,
  MANUAL_ENTRIES_PATH,
  MANUAL_REVIEW_DAY_STEPS,
  MANUAL_REVIEW_MONTH_STEPS,
  type ManualEntry,
  type ManualEntryResponse,
  REVIEW_REASON_MESSAGES,
} from "@charity-steps/shared-types";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Database } from "../../src/db/database.js";
import { rowsParam } from "../../src/db/json-rows.js";
import { READINGS_SHARED_MS } from "../../src/db/shared-readings.js";
import { dayPartsQueries } from "../../src/ledger/eligible-steps.js";
import { buildTestApp, createSignedInWalker, createTestDatabase, dialects, type TestApp } from "../helper.js";
import { keptPlan } from "../support/plans.js";
import { manualForm, photo, stepsClient } from "../support/steps.js";

const NOW = new Date("2026-11-21T12:00:00Z");
const TODAY = "2026-11-21";
const PHOTOS = join(import.meta.dirname, "..", "support", "photos");

/** A fixture photo (`make-photos.ts`), as its camera would have written it on `day`. */
async function scene(name: string, day = TODAY): Promise<Buffer> {
  return withCaptureDay(readFileSync(join(PHOTOS, `${name}.jpg`)), day);
}

/** `bytes` as a JPEG whose EXIF says it was taken on `day` (at half past nine, camera time). */
async function withCaptureDay(bytes: Buffer, day: string): Promise<Buffer> {
  return sharp(bytes)
    .withExif({ IFD2: { DateTimeOriginal: `${day.replaceAll("-", ":")} 09:30:00` } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A picture of random pixels taken on `day`: unlike any other photo. */
async function uniquePhoto(day = TODAY): Promise<Buffer> {
  const raw = await sharp(randomBytes(16 * 12 * 3), { raw: { width: 16, height: 12, channels: 3 } })
    .resize(160, 120, { kernel: "nearest" })
    .png()
    .toBuffer();
  return withCaptureDay(raw, day);
}

describe.each(dialects)("fair play: manual entries and eligible steps (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await testApp.close();
    vi.useRealTimers();
  });

  const newWalker = async () => {
    const walker = await createSignedInWalker(testApp.app);
    const api = stepsClient(testApp.app, walker.cookie);
    const add = async (steps: number, bytes: Buffer, date = TODAY) => {
      const response = await api.addManual(
        manualForm(
          { steps: String(steps), date },
          { bytes, filename: "walk.jpg", contentType: "image/jpeg" },
        ),
      );
      expect(response.statusCode, response.body).toBe(201);
      return (response.json() as ManualEntryResponse).entry;
    };
    const stats = async () => (await api.get("/api/dashboard/stats")).json();
    return { ...walker, api, add, stats };
  };
  const reasonsOf = (entry: ManualEntry) => entry.reasons.map((reason) => reason.code);

  it("approves an entry at once when nothing needs a look", async () => {
    const walker = await newWalker();
    const entry = await walker.add(4_000, await scene("park-morning"));
    expect(entry).toMatchObject({ status: "approved", reasons: [], decisionReason: null });
    expect(await walker.stats()).toMatchObject({
      monthlySteps: 4_000,
      eligibleMonthSteps: 4_000,
      pendingMonthSteps: 0,
    });
  });

  it("replays an answer stored before entries had a status as approved", async () => {
    const walker = await newWalker();
    const key = "replay-from-before-fair-play";
    const form = manualForm({ steps: "1200", date: TODAY }, { bytes: await uniquePhoto() });
    const first = await walker.api.addManual(form, key);
    expect(first.statusCode).toBe(201);
    const { entry, ...totals } = first.json() as ManualEntryResponse;
    const { status: _status, reasons: _reasons, decisionReason: _decision, ...older } = entry;
    await testApp.app.database.db
      .updateTable("idempotency_records")
      .set({ response_body: JSON.stringify({ entry: older, ...totals }) })
      .where("key", "=", key)
      .execute();
    const replay = await walker.api.addManual(form, key);
    expect(replay.statusCode, replay.body).toBe(201);
    expect(replay.json()).toEqual({
      entry: { ...older, status: "approved", reasons: [], decisionReason: null },
      ...totals,
    });
  });

  it("holds the same photo, and a re-encoded, resized or cropped copy of it, but not other pictures of the same kind of scene", async () => {
    const first = await newWalker();
    const original = await scene("park-evening");
    expect((await first.add(3_000, original)).status).toBe("approved");

    // The very same bytes, sent again by someone else.
    const second = await newWalker();
    const same = await second.add(3_000, original);
    expect(same.status).toBe("pending");
    expect(same.reasons).toEqual([
      { code: "similar-photo", message: REVIEW_REASON_MESSAGES["similar-photo"] },
    ]);

    // Half the size, at a much lower quality, its EXIF date intact.
    const resized = await sharp(original)
      .resize(400)
      .withExif({ IFD2: { DateTimeOriginal: "2026:11:21 09:30:00" } })
      .jpeg({ quality: 55 })
      .toBuffer();
    expect(reasonsOf(await second.add(2_000, resized))).toEqual(["similar-photo"]);

    // A few pixels cropped off each edge.
    const cropped = await withCaptureDay(
      await sharp(original).extract({ left: 20, top: 15, width: 760, height: 570 }).toBuffer(),
      TODAY,
    );
    expect(reasonsOf(await second.add(1_000, cropped))).toEqual(["similar-photo"]);

    // Other walks: the same sky, grass, path and trees, laid out otherwise.
    const third = await newWalker();
    for (const name of ["riverside", "hill-walk"]) {
      expect(await third.add(2_500, await scene(name)), name).toMatchObject({ status: "approved" });
    }
  });

  it("holds a photo that does not say when it was taken, or says another day", async () => {
    const walker = await newWalker();
    const undated = await walker.add(1_500, await photo("png", 80, 60));
    expect(reasonsOf(undated)).toEqual(["capture-date-missing"]);
    const otherDay = await walker.add(1_500, await uniquePhoto("2026-11-19"));
    expect(otherDay.status).toBe("pending");
    expect(reasonsOf(otherDay)).toEqual(["capture-date-other-day"]);
    // A photo of the entry's own day, for an entry of an earlier day, is fine.
    expect((await walker.add(1_500, await uniquePhoto("2026-11-19"), "2026-11-19")).status).toBe("approved");
  });

  it(`holds manual steps past ${MANUAL_REVIEW_DAY_STEPS} in a day`, async () => {
    const walker = await newWalker();
    expect((await walker.add(12_000, await uniquePhoto())).status).toBe("approved");
    expect((await walker.add(MANUAL_REVIEW_DAY_STEPS - 12_000, await uniquePhoto())).status).toBe("approved");
    const over = await walker.add(1, await uniquePhoto());
    expect(reasonsOf(over)).toEqual(["manual-day-over"]);
    // The next day starts again.
    const tomorrow = "2026-11-20";
    expect((await walker.add(5_000, await uniquePhoto(tomorrow), tomorrow)).status).toBe("approved");
  });

  it(`holds manual steps past ${MANUAL_REVIEW_MONTH_STEPS} in a month`, async () => {
    const walker = await newWalker();
    const perDay = 19_000;
    for (let day = 1; day <= 5; day++) {
      const date = `2026-11-0${day}`;
      expect((await walker.add(perDay, await uniquePhoto(date), date)).status).toBe("approved");
    }
    const room = MANUAL_REVIEW_MONTH_STEPS - 5 * perDay;
    expect((await walker.add(room, await uniquePhoto("2026-11-06"), "2026-11-06")).status).toBe("approved");
    const over = await walker.add(10, await uniquePhoto("2026-11-07"), "2026-11-07");
    expect(reasonsOf(over)).toEqual(["manual-month-over"]);
    // Last month's entries are another month's.
    const october = "2026-10-30";
    expect((await walker.add(100, await uniquePhoto(october), october)).status).toBe("approved");
  });

  it("counts a held entry in the day, the month and the history, but not in the prize entries", async () => {
    const walker = await newWalker();
    await walker.api.sync({ steps: 3_000, date: TODAY, source: "device_motion" });
    const approved = await walker.add(9_000, await uniquePhoto());
    expect(approved.status).toBe("approved");
    // A minute later, so the list has an order to show.
    vi.setSystemTime(NOW.getTime() + 60_000);
    const held = await walker.add(5_000, await photo("jpeg", 90, 70));
    vi.setSystemTime(NOW);
    expect(held.status).toBe("pending");

    expect(await walker.stats()).toMatchObject({
      todaySteps: 17_000,
      monthlySteps: 17_000,
      eligibleMonthSteps: 12_000,
      pendingMonthSteps: 5_000,
      prizeEntries: 1,
      stepsToNextEntry: 8_000,
    });
    const history = (await walker.api.get("/api/steps/history")).json().days as {
      date: string;
      steps: number;
    }[];
    // Every step shows, those waiting marked as such.
    expect(history.at(-1)).toEqual({
      date: TODAY,
      steps: 17_000,
      motionSteps: 3_000,
      healthSteps: 0,
      manualSteps: 14_000,
      goal: 10_000,
      pendingSteps: 5_000,
      // Why, in fair play's words: the held entry's reasons.
      pendingReasons: held.reasons,
    });
    expect(history.at(-2)).toEqual({
      date: "2026-11-20",
      steps: 0,
      motionSteps: 0,
      healthSteps: 0,
      manualSteps: 0,
      goal: 10_000,
    });

    const list = await walker.api.get(MANUAL_ENTRIES_PATH);
    expect(list.statusCode).toBe(200);
    expect(list.json().entries.map((entry: ManualEntry) => [entry.id, entry.status])).toEqual([
      [held.id, "pending"],
      [approved.id, "approved"],
    ]);
    // Another walker's list holds none of them.
    const other = await newWalker();
    expect((await other.api.get(MANUAL_ENTRIES_PATH)).json()).toEqual({ entries: [] });
    expect(FAIR_PLAY_MESSAGES.pending).toMatch(/waiting for a quick check/);
  });

  it("splits every walker's month apart, as the draw reads them: held days of other walkers or months change nothing", async () => {
    const held = await newWalker();
    const other = await newWalker();
    await held.api.sync({ steps: 12_000, date: TODAY, source: "device_motion" });
    expect((await held.add(4_000, await photo("png", 50, 50))).status).toBe("pending");
    await other.api.sync({ steps: 30_000, date: TODAY, source: "device_motion" });
    const october = "2026-10-31";
    await other.api.sync({ steps: 2_000, date: october, source: "device_motion" });
    expect((await other.add(3_000, await photo("png", 52, 50), october)).status).toBe("pending");

    const { eligibleSteps } = testApp.app.repositories;
    const november = await eligibleSteps.months("2026-11");
    expect(november.get(held.user.id)).toEqual({
      userId: held.user.id,
      countedSteps: 16_000,
      eligibleSteps: 12_000,
      pendingSteps: 4_000,
    });
    expect(november.get(other.user.id)).toMatchObject({ countedSteps: 30_000, eligibleSteps: 30_000 });
    expect((await eligibleSteps.months("2026-10")).get(other.user.id)).toEqual({
      userId: other.user.id,
      countedSteps: 5_000,
      eligibleSteps: 2_000,
      pendingSteps: 3_000,
    });
  });

  it("marks the steps that wait on the group leaderboard, and ranks by every step", async () => {
    const admin = await newWalker();
    const member = await newWalker();
    await admin.api.sync({ steps: 2_000, date: TODAY, source: "device_motion" });
    expect((await admin.add(6_000, await photo("png", 54, 50))).status).toBe("pending");
    await member.api.sync({ steps: 7_000, date: TODAY, source: "device_motion" });
    const group = (await admin.api.post("/api/groups", { name: "Fair walkers", description: "" })).json();
    expect((await member.api.post("/api/groups/join", { joinCode: group.joinCode })).statusCode).toBe(201);

    const board = (await member.api.get(`/api/groups/${group.id}/leaderboard`)).json();
    expect(board).toEqual([
      expect.objectContaining({ rank: 1, monthlySteps: 8_000, pendingSteps: 6_000 }),
      expect.objectContaining({ rank: 2, monthlySteps: 7_000 }),
    ]);
    expect(board[1]).not.toHaveProperty("pendingSteps");

    // More of the admin's steps wait: their own row says so at once, the others' within seconds.
    expect((await admin.add(5_000, await photo("png", 54, 50))).status).toBe("pending");
    const adminRow = async (viewer: typeof admin) =>
      (await viewer.api.get(`/api/groups/${group.id}/leaderboard`)).json()[0];
    expect(await adminRow(admin)).toMatchObject({ monthlySteps: 13_000, pendingSteps: 11_000 });
    expect(await adminRow(member)).toMatchObject({ monthlySteps: 13_000, pendingSteps: 6_000 });
    try {
      vi.setSystemTime(NOW.getTime() + READINGS_SHARED_MS);
      expect(await adminRow(member)).toMatchObject({ monthlySteps: 13_000, pendingSteps: 11_000 });
    } finally {
      vi.setSystemTime(NOW);
    }
  });

  it("leaves out held steps by the day rule: the day's cap and the larger of motion and health", async () => {
    const walker = await newWalker();
    // A day not yet late (it ended less than 36 hours ago).
    const day = "2026-11-20";
    await walker.api.sync({ steps: 20_000, date: day, source: "device_motion" });
    const held = await walker.add(25_000, await uniquePhoto("2026-11-19"), day);
    expect(held.status).toBe("pending");
    expect(await walker.stats()).toMatchObject({
      monthlySteps: 45_000,
      eligibleMonthSteps: 20_000,
      pendingMonthSteps: 25_000,
    });
    // 28,000 + 25,000 is capped at 50,000: the held entry now holds back 22,000, not 25,000.
    await walker.api.sync({ steps: 28_000, date: day, source: "device_motion" });
    // A health source seeing the same walk counts once, as the larger of the two.
    await walker.api.sync({ steps: 27_000, date: day, source: "apple_health" });
    expect(await walker.stats()).toMatchObject({
      monthlySteps: 50_000,
      eligibleMonthSteps: 28_000,
      pendingMonthSteps: 22_000,
    });
  });
});

describe.each(dialects)("fair play's day parts (%s)", (dialect) => {
  it("reads each day's counters, total and decision by key, with the plans a connection keeps", async () => {
    const testDb = await createTestDatabase(dialect, { migrated: true });
    const database = Database.connect(testDb.url);
    try {
      const { db } = database;
      const walkers = Array.from({ length: 400 }, (_, index) => `w${index}`);
      const days = ["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"];
      await db
        .insertInto("users")
        .values(
          walkers.map((id) => ({ id, issuer: "https://id.test", subject: id, created_at: 1, updated_at: 1 })),
        )
        .execute();
      // Two phones a day for every walker: 3,200 counters, 1,600 days; one decision for each of w1's days.
      const rows = walkers.flatMap((user_id, walker) =>
        days.map((day, index) => ({ user_id, day, steps: 1000 * (walker % 10) + index })),
      );
      for (let start = 0; start < rows.length; start += 500) {
        const slice = rows.slice(start, start + 500);
        await db
          .insertInto("step_counters")
          .values(
            slice.flatMap(({ user_id, day, steps }) =>
              ["device:a", "device:b"].map((counter_id) => ({
                user_id,
                day,
                counter_id,
                kind: "motion" as const,
                source: "device_motion",
                steps,
                updated_at: 1,
                created_at: 1,
              })),
            ),
          )
          .execute();
        await db
          .insertInto("step_days")
          .values(
            slice.map(({ user_id, day, steps }) => ({
              user_id,
              day,
              month: "2026-11",
              motion_steps: steps * 2,
              health_steps: 0,
              manual_steps: 0,
              total_steps: steps * 2,
              updated_at: 1,
              first_reading_at: 1,
            })),
          )
          .execute();
      }
      await db
        .insertInto("day_reviews")
        .values(
          days.map((day) => ({
            user_id: "w1",
            day,
            approved_steps: 10,
            decided_at: 1,
            decided_by: null,
            decision_reason: null,
          })),
        )
        .execute();
      await sql`analyze`.execute(db);

      const asked = rowsParam([
        { user_id: "w1", day: "2026-11-20" },
        { user_id: "w7", day: "2026-11-21" },
        { user_id: "nobody", day: "2026-11-21" },
      ]);
      const parts = dayPartsQueries(dialect, asked);
      const counters = (await parts.counters.execute(db)).rows;
      expect(
        counters.map((row) => `${row.user_id} ${row.day} ${row.counter_id} ${row.steps}`).sort(),
      ).toEqual([
        "w1 2026-11-20 device:a 1002",
        "w1 2026-11-20 device:b 1002",
        "w7 2026-11-21 device:a 7003",
        "w7 2026-11-21 device:b 7003",
      ]);
      const stored = (await parts.stored.execute(db)).rows;
      expect(stored.map((row) => `${row.user_id} ${row.day} ${row.total_steps}`).sort()).toEqual([
        "w1 2026-11-20 2004",
        "w7 2026-11-21 14006",
      ]);
      const decided = (await parts.decided.execute(db)).rows;
      expect(decided.map((row) => `${row.user_id} ${row.day} ${row.approved_steps}`)).toEqual([
        "w1 2026-11-20 10",
      ]);
      expect((await parts.manual.execute(db)).rows).toEqual([]);

      // The tables that grow with every walker's every day; the decisions' stays a few rows long.
      for (const [query, table, alias] of [
        [parts.counters, "step_counters", "c"],
        [parts.stored, "step_days", "s"],
      ] as const) {
        const plan = await keptPlan(db, dialect, query);
        if (dialect === "sqlite") {
          expect(plan).toMatch(new RegExp(`SEARCH ${alias} USING (PRIMARY KEY|INDEX)`));
          expect(plan).not.toMatch(new RegExp(`SCAN ${alias}\\b`));
        } else {
          expect(plan).toMatch(new RegExp(`Index Scan (on|using) ${table}_pk`));
          expect(plan).not.toMatch(new RegExp(`Seq Scan on ${table}`));
        }
      }
    } finally {
      await database.close();
      await testDb.drop();
    }
  });
});
