import { BadRequestError, BusyError, UnsupportedMediaTypeError } from "../errors.js";
import { BoundedQueue } from "./bounded-queue.js";

/** What a walker may prove steps with, recognised by the file's bytes (never its name or declared type). */
const ACCEPTED_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/gif"]);

export const NOT_AN_IMAGE_MESSAGE = "Please upload an image file (JPG, PNG, etc.).";
export const EMPTY_IMAGE_MESSAGE = "The image file is empty. Please upload an image to verify your steps.";
export const UNREADABLE_IMAGE_MESSAGE =
  "This image could not be read. Please upload another photo (JPG, PNG, WebP or GIF).";
export const PHOTOS_BUSY_MESSAGE =
  "We are busy checking other walkers' photos right now. Please try again in a few seconds.";

/** Photos are kept at most this size on their longer side: enough to check steps, small to store. */
const MAX_SIDE_PX = 2048;
/**
 * The most pixels a photo may decode to: above any phone camera's (48 megapixels is 8000 × 6000).
 * Only the first frame of an animated GIF or WebP is ever decoded, so this bounds all of its frames too.
 */
export const MAX_INPUT_PIXELS = 50_000_000;
export const TOO_MANY_PIXELS_MESSAGE = `This photo has more pixels than we can check (at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels). Please upload a smaller photo or a screenshot.`;
/** Quality of the lossy encodings: a photo of a step counter stays readable at a fraction of the size. */
const QUALITY = 80;
/** The last try when every other encoding came out larger than the upload (an already low-quality photo). */
const FALLBACK_QUALITY = 50;

/**
 * Photos are re-encoded one at a time, with a short waiting list. Image work runs on libuv's thread pool
 * (four threads unless UV_THREADPOOL_SIZE says otherwise), which password hashing and file reads share:
 * one image at a time leaves the other threads to them, so the app shell, static files and sign-up never
 * wait behind photos. A full list answers at once (503) rather than making the walker wait.
 */
export const PHOTO_QUEUE_CONCURRENCY = 1;
export const PHOTO_QUEUE_WAITING = 8;
/** What a refused walker is told to wait before sending again: a photo takes well under this. */
export const PHOTOS_BUSY_RETRY_AFTER_SECONDS = 5;

export const photoQueue = new BoundedQueue(PHOTO_QUEUE_CONCURRENCY, PHOTO_QUEUE_WAITING);

/** The photo queue is full: 503, with how long to wait before sending again. */
export class PhotosBusyError extends BusyError {
  readonly retryAfterSeconds = PHOTOS_BUSY_RETRY_AFTER_SECONDS;
  constructor() {
    super(PHOTOS_BUSY_MESSAGE);
  }
}

export interface ProofPhoto {
  contentType: string;
  width: number;
  height: number;
  data: Buffer;
  /** The picture's perceptual hash (`perceptualHash`), the same for a re-encoded or resized copy. */
  perceptualHash: string;
  /** The calendar day the camera says it took the photo (YYYY-MM-DD), or null when it does not say. */
  captureDay: string | null;
}

type Sharp = typeof import("sharp");
let loadedSharp: Promise<Sharp> | undefined;

/** Loaded on the first photo: libvips is a fifth of an idle API's memory, and most requests are syncs. */
function loadSharp(): Promise<Sharp> {
  loadedSharp ??= import("sharp").then(({ default: sharp }) => {
    // One libvips thread per image: with one image at a time, a core stays free for requests.
    sharp.concurrency(1);
    // Nothing is decoded twice, so libvips' operation cache would only hold memory.
    sharp.cache(false);
    return sharp;
  });
  return loadedSharp;
}

/**
 * Checks that `bytes` are a JPEG, PNG, WebP or GIF, then re-encodes its first frame turned upright and
 * without any metadata (EXIF, XMP, ICC; so no GPS location), scaled down to at most 2048 px a side:
 * a JPEG as JPEG, anything else as WebP, both at quality 80. It is stored no larger than it came: when
 * that encoding is larger than the upload, the next of `ENCODINGS` is tried, and the smallest is kept.
 * Runs in the photo queue; throws PhotosBusyError when the queue is full.
 */
export async function prepareProofPhoto(bytes: Buffer): Promise<ProofPhoto> {
  if (bytes.length === 0) throw new BadRequestError(EMPTY_IMAGE_MESSAGE);
  const { fileTypeFromBuffer } = await import("file-type");
  const mime = (await fileTypeFromBuffer(bytes))?.mime;
  if (mime === undefined || !ACCEPTED_TYPES.has(mime))
    throw new UnsupportedMediaTypeError(NOT_AN_IMAGE_MESSAGE);
  const sharp = await loadSharp();
  const work = photoQueue.tryRun(async () => {
    try {
      const photo = await reencode(sharp, bytes, mime);
      // Read from the upload: the stored photo carries no metadata.
      return { ...photo, captureDay: await captureDay(bytes) };
    } catch (error) {
      // sharp refuses a photo over the limit from its header, before decoding anything.
      if (error instanceof Error && error.message.includes("exceeds pixel limit")) {
        throw new UnsupportedMediaTypeError(TOO_MANY_PIXELS_MESSAGE);
      }
      throw new UnsupportedMediaTypeError(UNREADABLE_IMAGE_MESSAGE);
    }
  });
  if (work === undefined) throw new PhotosBusyError();
  return work;
}

/** The encodings tried, in order, until one is no larger than the upload: a JPEG stays a JPEG if it can. */
const ENCODINGS: Record<"jpeg" | "other", Encoding[]> = {
  jpeg: [
    { format: "jpeg", quality: QUALITY },
    { format: "webp", quality: QUALITY },
    { format: "jpeg", quality: FALLBACK_QUALITY },
  ],
  // A lossless WebP is what keeps a small, flat picture (a screenshot, a tiny GIF) small.
  other: [
    { format: "webp", quality: QUALITY },
    { format: "webp", lossless: true },
    { format: "webp", quality: FALLBACK_QUALITY },
  ],
};

interface Encoding {
  format: "jpeg" | "webp";
  quality?: number;
  lossless?: boolean;
}

/**
 * The day the camera took the photo, from its EXIF (the original's date, else its creation date),
 * as the camera's own clock wrote it: no time zone is applied, so a photo taken at 23:30 stays on its
 * day. Null when the photo has no such date, or its metadata cannot be read.
 */
export async function captureDay(bytes: Buffer): Promise<string | null> {
  const { default: exifr } = await import("exifr");
  let tags: Record<string, unknown> | undefined;
  try {
    tags = await exifr.parse(bytes, {
      pick: ["DateTimeOriginal", "CreateDate"],
      reviveValues: false,
    });
  } catch {
    return null;
  }
  for (const value of [tags?.DateTimeOriginal, tags?.CreateDate]) {
    const match = typeof value === "string" ? /^(\d{4})[:-](\d{2})[:-](\d{2})/.exec(value) : null;
    if (match) return `${match[1]}-${match[2]}-${match[3]}`;
  }
  return null;
}

/** The side of the grey thumbnail a hash is read from: each of its 8 rows gives 8 bits. */
const HASH_WIDTH = 9;
const HASH_HEIGHT = 8;

/**
 * A difference hash (dHash) of the picture: shrunk to 9 × 8 grey pixels, each bit says whether a
 * pixel is brighter than its right-hand neighbour. Re-encoding, resizing and small crops barely
 * change the shrunk picture, so copies differ in a few bits; different pictures in about half.
 * 64 bits, as 16 hex digits.
 */
export async function perceptualHash(
  sharp: Sharp,
  pixels: Buffer,
  raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 },
): Promise<string> {
  const grey = await sharp(pixels, { raw })
    .greyscale()
    .resize(HASH_WIDTH, HASH_HEIGHT, { fit: "fill" })
    .raw()
    .toBuffer();
  let hash = 0n;
  for (let y = 0; y < HASH_HEIGHT; y++) {
    for (let x = 0; x < HASH_WIDTH - 1; x++) {
      const left = grey[y * HASH_WIDTH + x] ?? 0;
      const right = grey[y * HASH_WIDTH + x + 1] ?? 0;
      hash = (hash << 1n) | (left > right ? 1n : 0n);
    }
  }
  return hash.toString(16).padStart(16, "0");
}

/** How many bits two hashes of `perceptualHash` differ in. */
export function hashDistance(a: string, b: string): number {
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let bits = 0;
  while (diff > 0n) {
    bits += Number(diff & 1n);
    diff >>= 1n;
  }
  return bits;
}

async function reencode(sharp: Sharp, bytes: Buffer, mime: string): Promise<Omit<ProofPhoto, "captureDay">> {
  // The first frame only (`pages: 1`, sharp's default, stated because it is the point), decoded once;
  // each encoding starts from these pixels.
  const { data: pixels, info } = await sharp(bytes, {
    pages: 1,
    limitInputPixels: MAX_INPUT_PIXELS,
    sequentialRead: true,
  })
    .rotate()
    .resize({ width: MAX_SIDE_PX, height: MAX_SIDE_PX, fit: "inside", withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  const hash = await perceptualHash(sharp, pixels, raw);

  let best: Omit<ProofPhoto, "captureDay"> | undefined;
  for (const { format, quality, lossless } of ENCODINGS[mime === "image/jpeg" ? "jpeg" : "other"]) {
    const image = sharp(pixels, { raw });
    const data = await (format === "jpeg"
      ? image.jpeg({ quality }).toBuffer()
      : image.webp(lossless ? { lossless } : { quality }).toBuffer());
    if (best === undefined || data.length < best.data.length) {
      best = {
        contentType: `image/${format}`,
        width: raw.width,
        height: raw.height,
        data,
        perceptualHash: hash,
      };
    }
    if (best.data.length <= bytes.length) break;
  }
  return best as Omit<ProofPhoto, "captureDay">;
}
