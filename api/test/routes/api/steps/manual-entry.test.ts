import { randomUUID } from "node:crypto";
import zlib from "node:zlib";
import { MANUAL_IMAGE_MAX_BYTES } from "@charity-steps/shared-types";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  EMPTY_IMAGE_MESSAGE,
  NOT_AN_IMAGE_MESSAGE,
  TOO_MANY_PIXELS_MESSAGE,
  UNREADABLE_IMAGE_MESSAGE,
} from "../../../../src/images/proof-photo.js";
import { MANUAL_MESSAGES } from "../../../../src/routes/api/steps/manual-entry.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { jpegWithGps, manualForm, multipartBody, photo, stepsClient } from "../../../support/steps.js";

const NOW = new Date("2026-11-21T12:00:00Z");
const TODAY = "2026-11-21";

describe.each(dialects)("manual entries with a photo (%s)", (dialect) => {
  let testApp: TestApp;
  let png: Buffer;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    testApp = await buildTestApp(dialect);
    png = await photo("png");
  });
  afterAll(async () => {
    await testApp.close();
    vi.useRealTimers();
  });

  const newWalker = async () => {
    const walker = await createSignedInWalker(testApp.app);
    return { ...walker, api: stepsClient(testApp.app, walker.cookie) };
  };

  /** Everything a walker has stored: entries, photos, idempotency records, and today's total. */
  const storedFor = async (userId: string) => {
    const { db } = testApp.app.database;
    const count = async (table: "manual_step_entries" | "step_photos" | "idempotency_records") =>
      (await db.selectFrom(table).select("user_id").where("user_id", "=", userId).execute()).length;
    const day = await db
      .selectFrom("step_days")
      .select("total_steps")
      .where("user_id", "=", userId)
      .where("day", "=", TODAY)
      .executeTakeFirst();
    return {
      entries: await count("manual_step_entries"),
      photos: await count("step_photos"),
      records: await count("idempotency_records"),
      today: day?.total_steps ?? 0,
    };
  };

  /** The walker's one stored proof photo, as the database holds it. */
  const storedPhoto = (userId: string) =>
    testApp.app.database.db
      .selectFrom("step_photos")
      .select(["data", "content_type", "width", "height"])
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();

  it.each(["jpeg", "png", "webp"] as const)(
    "accepts a real %s photo and counts the steps on their day",
    async (format) => {
      const { api, user } = await newWalker();
      await api.sync({ steps: 2_000, date: TODAY, source: "device_motion" });
      const response = await api.addManual(
        manualForm(
          { steps: "3500", date: TODAY, note: "  Parkrun, phone left at home  " },
          { bytes: await photo(format), filename: `proof.${format}`, contentType: `image/${format}` },
        ),
      );
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toMatchObject({
        entry: { date: TODAY, steps: 3_500, note: "Parkrun, phone left at home", source: "manual_verified" },
        daySteps: 5_500,
        todaySteps: 5_500,
        monthlySteps: 5_500,
      });
      // A JPEG stays a JPEG; anything else is stored as WebP (a PNG photo is far smaller so).
      const stored = await storedPhoto(user.id);
      const kept = format === "jpeg" ? "jpeg" : "webp";
      expect(stored).toMatchObject({ content_type: `image/${kept}`, width: 64, height: 48 });
      expect((await sharp(stored.data).metadata()).format).toBe(kept);
    },
  );

  it("adds manual steps on top of motion and health, up to the 50,000 cap and not past it", async () => {
    const { api, user } = await newWalker();
    await api.sync({ steps: 30_000, date: TODAY, source: "device_motion" });
    await api.sync({ steps: 25_000, date: TODAY, source: "google_fit" });
    const past = await api.addManual(manualForm({ steps: "25000", date: TODAY }, { bytes: png }));
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(MANUAL_MESSAGES.dayFull(TODAY, 20_000));
    expect(await storedFor(user.id)).toMatchObject({ entries: 0, photos: 0, today: 30_000 });

    const response = await api.addManual(manualForm({ steps: "20000", date: TODAY }, { bytes: png }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ daySteps: 50_000, monthlySteps: 50_000 });
    const full = await api.addManual(manualForm({ steps: "1", date: TODAY }, { bytes: png }));
    expect(full.statusCode).toBe(400);
    expect(full.json().message).toBe(MANUAL_MESSAGES.dayFull(TODAY, 0));
    expect(full.json().message).toContain("no more steps can be added");
  });

  it("refuses each bad upload with its status and message, storing nothing", async () => {
    const { api, user } = await newWalker();
    const oversize = Buffer.concat([png, Buffer.alloc(MANUAL_IMAGE_MAX_BYTES + 1 - png.length)]);
    const html = Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>");
    const cases: [string, ReturnType<typeof manualForm>, number, string][] = [
      [
        "a text file renamed .png",
        manualForm(
          { steps: "5000", date: TODAY },
          { bytes: Buffer.from("I walked, honest."), filename: "proof.png", contentType: "image/png" },
        ),
        415,
        NOT_AN_IMAGE_MESSAGE,
      ],
      [
        "an HTML file declared image/png",
        manualForm(
          { steps: "5000", date: TODAY },
          { bytes: html, filename: "proof.png", contentType: "image/png" },
        ),
        415,
        NOT_AN_IMAGE_MESSAGE,
      ],
      [
        "an SVG with a script in it",
        manualForm(
          { steps: "5000", date: TODAY },
          {
            bytes: Buffer.from(
              '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>',
            ),
            filename: "proof.svg",
            contentType: "image/svg+xml",
          },
        ),
        415,
        NOT_AN_IMAGE_MESSAGE,
      ],
      [
        "a decompression bomb (a PNG claiming 50,000 × 50,000 pixels)",
        manualForm({ steps: "5000", date: TODAY }, { bytes: pngClaiming(50_000, 50_000) }),
        415,
        TOO_MANY_PIXELS_MESSAGE,
      ],
      [
        "a photo of 8,000 × 7,000 pixels, just over the 50 megapixels",
        manualForm({ steps: "5000", date: TODAY }, { bytes: pngClaiming(8_000, 7_000) }),
        415,
        "This photo has more pixels than we can check (at most 50 megapixels). Please upload a smaller photo or a screenshot.",
      ],
      [
        "half a PNG",
        manualForm({ steps: "5000", date: TODAY }, { bytes: png.subarray(0, Math.floor(png.length / 2)) }),
        415,
        UNREADABLE_IMAGE_MESSAGE,
      ],
      [
        "a zero-byte file",
        manualForm({ steps: "5000", date: TODAY }, { bytes: Buffer.alloc(0) }),
        400,
        EMPTY_IMAGE_MESSAGE,
      ],
      [
        "a 5 MB + 1 byte image",
        manualForm({ steps: "5000", date: TODAY }, { bytes: oversize }),
        413,
        "Please upload an image smaller than 5MB.",
      ],
      ["no image", manualForm({ steps: "5000", date: TODAY }, null), 400, MANUAL_MESSAGES.imageRequired],
      ["steps 0", manualForm({ steps: "0", date: TODAY }, { bytes: png }), 400, MANUAL_MESSAGES.invalidSteps],
      [
        "steps 50,001",
        manualForm({ steps: "50001", date: TODAY }, { bytes: png }),
        400,
        MANUAL_MESSAGES.tooManySteps,
      ],
      [
        "steps 'abc'",
        manualForm({ steps: "abc", date: TODAY }, { bytes: png }),
        400,
        MANUAL_MESSAGES.invalidSteps,
      ],
      [
        "steps 12.5",
        manualForm({ steps: "12.5", date: TODAY }, { bytes: png }),
        400,
        MANUAL_MESSAGES.invalidSteps,
      ],
      [
        "a 501-character note",
        manualForm({ steps: "5000", date: TODAY, note: "x".repeat(501) }, { bytes: png }),
        400,
        MANUAL_MESSAGES.noteTooLong,
      ],
      [
        "a date in the future",
        manualForm({ steps: "5000", date: "2026-11-22" }, { bytes: png }),
        422,
        "Sun, 22 Nov 2026 is in the future: steps can only be added for today or earlier.",
      ],
      [
        "a date 31 days back",
        manualForm({ steps: "5000", date: "2026-10-21" }, { bytes: png }),
        422,
        "Wed, 21 Oct 2026 is more than 30 days ago: steps can only be added for the last 30 days.",
      ],
      [
        "two images",
        [
          ...manualForm({ steps: "5000", date: TODAY }, { bytes: png }),
          { name: "justificationImage", value: png, filename: "b.png", contentType: "image/png" },
        ],
        400,
        "justificationImage was sent more than once: send each field once.",
      ],
      [
        "a second file under a name of its own",
        [
          ...manualForm({ steps: "5000", date: TODAY }, { bytes: png }),
          { name: "justificationImage2", value: png, filename: "b.png", contentType: "image/png" },
        ],
        400,
        "justificationImage2 is not a field this request takes.",
      ],
      [
        "steps sent twice",
        [...manualForm({ steps: "5000", date: TODAY }, { bytes: png }), { name: "steps", value: "6000" }],
        400,
        "steps was sent more than once: send each field once.",
      ],
      [
        "a file for the steps",
        [
          { name: "steps", value: Buffer.from("5000"), filename: "steps.txt", contentType: "text/plain" },
          ...manualForm({ steps: "5000", date: TODAY }, { bytes: png }).filter(
            (part) => part.name !== "steps",
          ),
        ],
        400,
        "steps must be text, not a file.",
      ],
      [
        "an unknown field",
        [...manualForm({ steps: "5000", date: TODAY }, { bytes: png }), { name: "bonus", value: "1" }],
        400,
        "bonus is not a field this request takes.",
      ],
      [
        "an unknown field with a name of 100,000 characters, not repeated back whole",
        [
          ...manualForm({ steps: "5000", date: TODAY }, { bytes: png }),
          { name: "n".repeat(100_000), value: "1" },
        ],
        400,
        `${"n".repeat(40)}… is not a field this request takes.`,
      ],
    ];
    for (const [name, form, status, message] of cases) {
      const response = await api.addManual(form);
      expect(response.statusCode, name).toBe(status);
      expect(response.json().message, name).toBe(message);
    }
    const noKey = await api.addManual(manualForm({ steps: "5000", date: TODAY }, { bytes: png }), null);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().message).toBe(MANUAL_MESSAGES.keyRequired);
    expect(await storedFor(user.id)).toEqual({ entries: 0, photos: 0, records: 0, today: 0 });
  });

  it("keeps a trimmed 500-character note (surrounding spaces do not count)", async () => {
    const { api } = await newWalker();
    const note = `  ${"n".repeat(500)}  `;
    const response = await api.addManual(manualForm({ steps: "10", date: TODAY, note }, { bytes: png }));
    expect(response.statusCode).toBe(201);
    expect(response.json().entry.note).toHaveLength(500);
  });

  it("stores a polyglot (a PNG with a script and a ZIP appended) as pixels only", async () => {
    const { api, user } = await newWalker();
    const polyglot = Buffer.concat([
      png,
      Buffer.from("<script>alert(document.cookie)</script>"),
      Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]),
    ]);
    const response = await api.addManual(
      manualForm(
        { steps: "800", date: TODAY },
        { bytes: polyglot, filename: "proof.png", contentType: "image/png" },
      ),
    );
    expect(response.statusCode).toBe(201);
    const stored = await storedPhoto(user.id);
    expect(stored.content_type).toBe("image/webp");
    expect(stored.data.includes(Buffer.from("<script"))).toBe(false);
    expect(stored.data.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]))).toBe(false);
  });

  it("strips the GPS position (and all other metadata) from a JPEG before storing it", async () => {
    const { api, user } = await newWalker();
    const original = await jpegWithGps();
    expect(await exifr.gps(original)).toMatchObject({ latitude: expect.closeTo(51.508, 2) });

    const response = await api.addManual(
      manualForm(
        { steps: "1200", date: TODAY },
        { bytes: original, filename: "IMG_0001.JPG", contentType: "image/jpeg" },
      ),
    );
    expect(response.statusCode).toBe(201);
    const stored = await storedPhoto(user.id);
    expect(await exifr.gps(stored.data)).toBeUndefined();
    expect(await exifr.parse(stored.data)).toBeUndefined();
    expect(stored.data.includes(Buffer.from("TestPhone"))).toBe(false);
  });

  it("serves the stored photo back to its walker only, as an image without its location", async () => {
    const owner = await newWalker();
    const created = await owner.api.addManual(
      manualForm(
        { steps: "1500", date: TODAY },
        { bytes: await jpegWithGps(), filename: "IMG_0002.JPG", contentType: "image/jpeg" },
      ),
    );
    expect(created.statusCode).toBe(201);
    const photoUrl: string = created.json().entry.photoUrl;
    expect(photoUrl).toMatch(/^\/api\/steps\/photos\/[0-9a-f-]{36}$/);

    const served = await owner.api.get(photoUrl);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/jpeg");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    expect(served.headers["cache-control"]).toBe("no-store");
    expect(served.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await exifr.gps(served.rawPayload)).toBeUndefined();

    const stranger = await newWalker();
    const refused = await stranger.api.get(photoUrl);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: "There is no such photo among your entries." });
    expect((await testApp.app.inject({ method: "GET", url: photoUrl })).statusCode).toBe(401);
    const notAnId = await owner.api.get("/api/steps/photos/../../users");
    expect(notAnId.statusCode).toBeGreaterThanOrEqual(400);
    expect(notAnId.statusCode).toBeLessThan(500);
    const badId = await owner.api.get("/api/steps/photos/1");
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toMatch(/id/);
  });

  it("answers a replayed Idempotency-Key with the first answer and adds nothing", async () => {
    const { api, user } = await newWalker();
    const key = randomUUID();
    const form = manualForm({ steps: "4000", date: TODAY, note: "Hike" }, { bytes: png });
    const first = await api.addManual(form, key);
    expect(first.statusCode).toBe(201);
    await api.sync({ steps: 1_000, date: TODAY, source: "device_motion" });

    const replay = await api.addManual(form, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
    expect(await storedFor(user.id)).toEqual({ entries: 1, photos: 1, records: 1, today: 5_000 });

    const different = await api.addManual(manualForm({ steps: "9000", date: TODAY }, { bytes: png }), key);
    expect(different.statusCode).toBe(422);
    expect(different.json().message).toBe(MANUAL_MESSAGES.keyReused);
    expect((await storedFor(user.id)).entries).toBe(1);
  });

  it("adds once when the same entry races itself, and again for a new key", async () => {
    const { api, user } = await newWalker();
    const key = randomUUID();
    const form = manualForm({ steps: "2500", date: TODAY }, { bytes: png });
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.addManual(form, key)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((answer) => answer.json().entry.id)).size).toBe(1);
    expect(await storedFor(user.id)).toMatchObject({ entries: 1, today: 2_500 });

    expect((await api.addManual(form, randomUUID())).json().daySteps).toBe(5_000);
  });

  it("still recognises a replay once its record has expired, even after its date left the window", async () => {
    const { api, user } = await newWalker();
    const key = randomUUID();
    const form = manualForm({ steps: "3000", date: "2026-10-25" }, { bytes: png });
    const first = await api.addManual(form, key);
    expect(first.statusCode).toBe(201);
    await testApp.app.database.db.deleteFrom("idempotency_records").where("user_id", "=", user.id).execute();

    vi.setSystemTime(new Date("2026-12-20T12:00:00Z"));
    try {
      const late = await api.addManual(form, key);
      expect(late.statusCode).toBe(201);
      expect(late.json().entry).toEqual(first.json().entry);
    } finally {
      vi.setSystemTime(NOW);
    }
    expect((await storedFor(user.id)).entries).toBe(1);
  });

  it("refuses a body that is not a form with 415, no body with 400, and a broken form with 400, each with a message", async () => {
    const { api } = await newWalker();
    const response = await api.post(
      "/api/steps/add-manual-verified",
      { steps: 5, date: TODAY },
      { "idempotency-key": randomUUID() },
    );
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toBe(MANUAL_MESSAGES.notAForm);
    const empty = await api.post("/api/steps/add-manual-verified", undefined, {
      "idempotency-key": randomUUID(),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(MANUAL_MESSAGES.notAForm);
    const { body, contentType } = multipartBody([{ name: "steps", value: "5" }]);
    const missingDate = await testApp.app.inject({
      method: "POST",
      url: "/api/steps/add-manual-verified",
      headers: {
        cookie: (await createSignedInWalker(testApp.app)).cookie,
        "content-type": contentType,
        "idempotency-key": randomUUID(),
      },
      payload: body,
    });
    expect(missingDate.statusCode).toBe(400);
    expect(missingDate.json().message).toBe("date is required.");

    const { cookie } = await createSignedInWalker(testApp.app);
    const broken: [string, string][] = [
      ["multipart/form-data", "no boundary"],
      ["multipart/form-data; boundary=abc", '--abc\r\nContent-Disposition: form-data; name="steps"\r\n\r\n5'],
      ["multipart/form-data; boundary=abc", "not a form at all"],
    ];
    for (const [type, payload] of broken) {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/api/steps/add-manual-verified",
        headers: { cookie, "content-type": type, "idempotency-key": randomUUID() },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().message, payload).toBe(MANUAL_MESSAGES.malformedForm);
    }
  });
});

/** A tiny PNG whose header claims `width` × `height` pixels: decoding it would need gigabytes. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // 8 bits per sample
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(Buffer.alloc(1024))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
