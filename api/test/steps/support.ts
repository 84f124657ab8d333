import { randomUUID } from "node:crypto";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import sharp from "sharp";

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
