import { randomUUID } from "node:crypto";
import { type DayString, londonDayStart } from "@charity-steps/shared-types";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import sharp from "sharp";
import { createSignedInWalker } from "../helper.js";

/** A walker's request to the API: JSON, same-origin, with their session cookie. */
export function stepsClient(app: FastifyInstance, cookie: string) {
  return {
    post: (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
      app.inject({
        method: "POST",
        url,
        headers: {
          cookie,
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      }),
    get: (url: string) => app.inject({ method: "GET", url, headers: { cookie } }),
    put: (url: string, payload: unknown) =>
      app.inject({
        method: "PUT",
        url,
        headers: { cookie, "content-type": "application/json" },
        payload: JSON.stringify(payload),
      }),
    sync: (body: { steps: number; date: string; source: string }, deviceId?: string) =>
      app.inject({
        method: "POST",
        url: "/api/steps/sync",
        headers: {
          cookie,
          "content-type": "application/json",
          ...(deviceId ? { "x-device-id": deviceId } : {}),
        },
        payload: JSON.stringify(body),
      }),
    addManual: (form: MultipartPart[], idempotencyKey: string | null = randomUUID()) => {
      const { body, contentType } = multipartBody(form);
      return app.inject({
        method: "POST",
        url: "/api/steps/add-manual-verified",
        headers: {
          cookie,
          "content-type": contentType,
          ...(idempotencyKey === null ? {} : { "idempotency-key": idempotencyKey }),
        },
        payload: body,
      });
    },
  };
}

export interface MultipartPart {
  name: string;
  value: string | Buffer;
  /** Sent as a file part when set. */
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body built byte by byte, so a test can send exactly what a hostile client would. */
export function multipartBody(parts: MultipartPart[]): { body: Buffer; contentType: string } {
  const boundary = `----charity-steps-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : "";
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The manual-entry form as the dashboard sends it, with a photo. */
export function manualForm(
  fields: { steps: string; date: string; note?: string },
  image: { bytes: Buffer; filename?: string; contentType?: string } | null,
): MultipartPart[] {
  const parts: MultipartPart[] = [
    { name: "steps", value: fields.steps },
    { name: "note", value: fields.note ?? "" },
    { name: "date", value: fields.date },
    { name: "source", value: "manual_verified" },
    { name: "manualEntry", value: "true" },
  ];
  if (image) {
    parts.push({
      name: "justificationImage",
      value: image.bytes,
      filename: image.filename ?? "proof.png",
      contentType: image.contentType ?? "image/png",
    });
  }
  return parts;
}

/** A real photo, encoded by libvips: a small teal picture in the given format. */
export async function photo(format: "jpeg" | "png" | "webp", width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#0d9488" } })
    .toFormat(format)
    .toBuffer();
}

/** A JPEG carrying a camera make and the GPS position of Trafalgar Square in its EXIF. */
export async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: "#0f766e" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "TestPhone" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "51/1 30/1 29/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "0/1 7/1 39/1",
      },
    })
    .toBuffer();
}

export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json() as T;
}

/**
 * A tiny animated GIF with a big canvas, written byte by byte: a `side` × `side` screen with a
 * two-colour palette, looping, and `frames` frames of one pixel each (each at its own x). Every frame
 * composes onto the whole canvas, so decoding all of them costs `frames` full canvases of pixels.
 */
export function bigCanvasGif(frames = 23, side = 2048): Buffer {
  const u16 = (n: number) => [n & 0xff, n >> 8];
  const bytes = [
    ...Buffer.from("GIF89a"),
    ...u16(side),
    ...u16(side),
    0x80, // a global palette of 2 colours
    0,
    0,
    ...[0, 0, 0, 255, 255, 255],
    // NETSCAPE2.0: loop for ever.
    ...[0x21, 0xff, 0x0b, ...Buffer.from("NETSCAPE2.0"), 3, 1, 0, 0, 0],
  ];
  for (let i = 0; i < frames; i++) {
    bytes.push(0x21, 0xf9, 4, 0x04, ...u16(1), 0, 0); // graphic control: 1/100 s, keep the frame
    bytes.push(0x2c, ...u16(i), ...u16(0), ...u16(1), ...u16(1), 0); // a 1 × 1 frame at (i, 0)
    bytes.push(2, 2, 0x44, 0x01, 0); // its LZW data: clear, colour 1, end
  }
  bytes.push(0x3b);
  return Buffer.from(bytes);
}

/** A PNG of random noise: as large as a picture of its size can be, and much larger than its WebP. */
export async function noisePng(width = 1200, height = 1200): Promise<Buffer> {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#000",
      noise: { type: "gaussian", mean: 128, sigma: 60 },
    },
  })
    .png()
    .toBuffer();
}

/** The walker's phone counted `steps` on London's `day`, synced that evening (through the ledger). */
export function walkedOn(app: FastifyInstance, userId: string, day: DayString, steps: number) {
  return app.repositories.ledger.recordCount(
    { userId, day, counterId: "device:phone", kind: "motion", source: "device_motion", steps },
    londonDayStart(day) + 20 * 3_600_000,
  );
}

/** A signed-in walker, their email confirmed (as its mailed link would) unless `confirmed` is false. */
export async function mailedWalker(app: FastifyInstance, name: string, { confirmed = true } = {}) {
  const created = await createSignedInWalker(app, name);
  if (confirmed) {
    await app.database.db
      .updateTable("users")
      .set({ email_verified_at: Date.UTC(2026, 10, 1) })
      .where("id", "=", created.user.id)
      .execute();
  }
  return { ...created, api: stepsClient(app, created.cookie) };
}
