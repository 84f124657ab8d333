import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MANUAL_ENTRIES_PER_DAY_MAX, MANUAL_PHOTO_BYTES_PER_DAY_MAX } from "@charity-steps/shared-types";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  PHOTO_QUEUE_CONCURRENCY,
  PHOTO_QUEUE_WAITING,
  PHOTOS_BUSY_MESSAGE,
  photoQueue,
} from "../../../../src/images/proof-photo.js";
import { MANUAL_MESSAGES } from "../../../../src/routes/api/steps/manual-entry.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { bigCanvasGif, manualForm, noisePng, photo, stepsClient } from "../../../support/steps.js";

const NOW = new Date("2026-11-21T12:00:00Z");
const TODAY = "2026-11-21";

describe.each(dialects)("photos and manual entries under abuse (%s)", (dialect) => {
  let testApp: TestApp;
  let webDist: string;
  let png: Buffer;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    // An app shell on disk: serving it reads the file on libuv's thread pool, as image work runs.
    webDist = await mkdtemp(join(tmpdir(), "charity-steps-web-"));
    await writeFile(join(webDist, "index.html"), "<!doctype html><title>Charity Steps</title>");
    testApp = await buildTestApp(dialect, { WEB_DIST_DIR: webDist });
    png = await photo("png");
  });
  afterAll(async () => {
    await testApp.close();
    await rm(webDist, { recursive: true, force: true });
    vi.useRealTimers();
  });

  const newWalker = async () => {
    const walker = await createSignedInWalker(testApp.app);
    return { ...walker, api: stepsClient(testApp.app, walker.cookie) };
  };

  const storedPhotos = (userId: string) =>
    testApp.app.database.db
      .selectFrom("step_photos")
      .select(["data", "content_type", "byte_size"])
      .where("user_id", "=", userId)
      .execute();

  it("takes four tiny animated GIFs with a huge canvas at once as first frames, while the app shell answers", async () => {
    const gif = bigCanvasGif(23, 2048);
    expect(gif.length).toBe(568);
    expect(await sharp(gif).metadata()).toMatchObject({ width: 2048, height: 2048, pages: 23 });
    const walkers = await Promise.all(Array.from({ length: 4 }, () => newWalker()));

    // Date is frozen in these tests; the clock that moves is performance's.
    const started = performance.now();
    const uploads = walkers.map(({ api }) =>
      api.addManual(
        manualForm(
          { steps: "1000", date: TODAY },
          { bytes: gif, filename: "proof.gif", contentType: "image/gif" },
        ),
      ),
    );
    const shell = await testApp.app.inject({ method: "GET", url: "/" });
    const shellSeconds = (performance.now() - started) / 1000;
    expect(shell.statusCode).toBe(200);
    expect(shell.body).toContain("Charity Steps");
    // Decoding every frame held all of libuv's threads for many seconds; now the shell waits for none.
    expect(shellSeconds).toBeLessThan(8);

    const answers = await Promise.all(uploads);
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201]);
    for (const { user } of walkers) {
      const [stored] = await storedPhotos(user.id);
      const metadata = await sharp(stored?.data).metadata();
      expect(metadata.pages ?? 1).toBe(1);
      expect(stored?.byte_size).toBeLessThanOrEqual(gif.length);
    }
  }, 60_000);

  it("answers 503 with Retry-After when the photo queue is full, storing nothing, and takes the entry later", async () => {
    const { api, user } = await newWalker();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const blockers = Array.from({ length: PHOTO_QUEUE_CONCURRENCY + PHOTO_QUEUE_WAITING }, () =>
      photoQueue.tryRun(() => held),
    );
    expect(blockers.every((blocker) => blocker !== undefined)).toBe(true);
    try {
      const key = randomUUID();
      const form = manualForm({ steps: "1500", date: TODAY }, { bytes: png });
      const busy = await api.addManual(form, key);
      expect(busy.statusCode).toBe(503);
      expect(busy.headers["retry-after"]).toBe("5");
      expect(busy.json()).toEqual({ message: PHOTOS_BUSY_MESSAGE });
      expect(await storedPhotos(user.id)).toEqual([]);

      release();
      await Promise.all(blockers);
      const later = await api.addManual(form, key);
      expect(later.statusCode).toBe(201);
      expect(later.json()).toMatchObject({ daySteps: 1_500 });
    } finally {
      release();
    }
  });

  it("stores each photo no larger than it was sent", async () => {
    const { api, user } = await newWalker();
    const noise = await noisePng();
    const sent = [noise, png, await photo("jpeg"), await photo("webp"), bigCanvasGif()];
    const stored = [];
    for (const bytes of sent) {
      const answer = await api.addManual(manualForm({ steps: "100", date: TODAY }, { bytes }));
      expect(answer.statusCode).toBe(201);
      const id = (answer.json().entry.photoUrl as string).split("/").pop() as string;
      const row = await testApp.app.database.db
        .selectFrom("step_photos")
        .select(["content_type", "byte_size"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row.byte_size, row.content_type).toBeLessThanOrEqual(bytes.length);
      stored.push(row);
    }
    expect(await storedPhotos(user.id)).toHaveLength(sent.length);
    // The noise PNG, several megabytes, is stored as a WebP a fraction of its size.
    const largest = stored.reduce((a, b) => (a.byte_size > b.byte_size ? a : b));
    expect(largest.content_type).toBe("image/webp");
    expect(largest.byte_size).toBeLessThan(noise.length / 2);
  }, 60_000);

  it(`takes at most ${MANUAL_ENTRIES_PER_DAY_MAX} entries a walker a day, and still answers their replays`, async () => {
    const { api, user } = await newWalker();
    const keys = Array.from({ length: MANUAL_ENTRIES_PER_DAY_MAX }, () => randomUUID());
    const form = manualForm({ steps: "100", date: TODAY }, { bytes: png });
    const firsts = [];
    for (const key of keys) {
      const answer = await api.addManual(form, key);
      expect(answer.statusCode).toBe(201);
      firsts.push(answer.json());
    }
    const refused = await api.addManual(form);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: MANUAL_MESSAGES.tooManyEntries });
    expect(await storedPhotos(user.id)).toHaveLength(MANUAL_ENTRIES_PER_DAY_MAX);

    const replay = await api.addManual(form, keys[0]);
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(firsts[0]);

    // Entries sent on another London day count against that day.
    vi.setSystemTime(new Date(NOW.getTime() + 86_400_000));
    try {
      expect((await api.addManual(form)).statusCode).toBe(201);
    } finally {
      vi.setSystemTime(NOW);
    }
  });

  it("takes no more than the day's entries when a walker sends many at once", async () => {
    const { api, user } = await newWalker();
    const form = manualForm({ steps: "100", date: TODAY }, { bytes: png });
    // A busy photo queue answers 503; the entry is sent again, as the form does.
    const addUntilAnswered = async () => {
      const key = randomUUID();
      for (;;) {
        const answer = await api.addManual(form, key);
        if (answer.statusCode !== 503) return answer.statusCode;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const statuses = await Promise.all(
      Array.from({ length: MANUAL_ENTRIES_PER_DAY_MAX + 3 }, () => addUntilAnswered()),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(MANUAL_ENTRIES_PER_DAY_MAX);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    expect(await storedPhotos(user.id)).toHaveLength(MANUAL_ENTRIES_PER_DAY_MAX);
  }, 60_000);

  it("takes photos up to the day's stored bytes and refuses the next with 429", async () => {
    const { api, user } = await newWalker();
    expect((await api.addManual(manualForm({ steps: "100", date: TODAY }, { bytes: png }))).statusCode).toBe(
      201,
    );
    // As if the walker's earlier photos today had filled the allowance but a few bytes.
    await testApp.app.database.db
      .updateTable("step_photos")
      .set({ byte_size: MANUAL_PHOTO_BYTES_PER_DAY_MAX - 10 })
      .where("user_id", "=", user.id)
      .execute();
    const refused = await api.addManual(manualForm({ steps: "100", date: TODAY }, { bytes: png }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: MANUAL_MESSAGES.tooManyPhotoBytes });
    expect(refused.json().message).toContain("20MB");
    expect(await storedPhotos(user.id)).toHaveLength(1);
  });

  it("refuses an entry past the day's cap with a message saying how many fit, and replays the accepted one", async () => {
    const { api } = await newWalker();
    const key = randomUUID();
    const form = manualForm({ steps: "48000", date: TODAY }, { bytes: png });
    const first = await api.addManual(form, key);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ daySteps: 48_000 });

    const past = await api.addManual(manualForm({ steps: "2001", date: TODAY }, { bytes: png }));
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(
      "That would take Sat, 21 Nov 2026 past 50,000 steps, the most a day can count: you can add at most 2,000 more steps for it.",
    );
    // A replay of the accepted entry, which would not fit now, still gets its first answer.
    const replay = await api.addManual(form, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
  });
});
