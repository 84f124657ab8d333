import { AppError, BadRequestError, UnsupportedMediaTypeError } from "../errors.js";
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
export class PhotosBusyError extends AppError {
  readonly retryAfterSeconds = PHOTOS_BUSY_RETRY_AFTER_SECONDS;
  constructor() {
    super(503, PHOTOS_BUSY_MESSAGE);
  }
}

export interface ProofPhoto {
  contentType: string;
  width: number;
  height: number;
  data: Buffer;
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
      return await reencode(sharp, bytes, mime);
    } catch {
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

async function reencode(sharp: Sharp, bytes: Buffer, mime: string): Promise<ProofPhoto> {
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

  let best: ProofPhoto | undefined;
  for (const { format, quality, lossless } of ENCODINGS[mime === "image/jpeg" ? "jpeg" : "other"]) {
    const image = sharp(pixels, { raw });
    const data = await (format === "jpeg"
      ? image.jpeg({ quality }).toBuffer()
      : image.webp(lossless ? { lossless } : { quality }).toBuffer());
    if (best === undefined || data.length < best.data.length) {
      best = { contentType: `image/${format}`, width: raw.width, height: raw.height, data };
    }
    if (best.data.length <= bytes.length) break;
  }
  return best as ProofPhoto;
}
