import { BadRequestError, UnsupportedMediaTypeError } from "../errors.js";

/** What a walker may prove steps with, recognised by the file's bytes (never its name or declared type). */
const ACCEPTED_FORMATS = new Map([
  ["image/jpeg", "jpeg"],
  ["image/png", "png"],
  ["image/webp", "webp"],
  ["image/gif", "gif"],
] as const);

export const NOT_AN_IMAGE_MESSAGE = "Please upload an image file (JPG, PNG, etc.).";
export const EMPTY_IMAGE_MESSAGE = "The image file is empty. Please upload an image to verify your steps.";
export const UNREADABLE_IMAGE_MESSAGE =
  "This image could not be read. Please upload another photo (JPG, PNG, WebP or GIF).";

/** Photos are kept at most this size on their longer side: enough to check steps, small to store. */
const MAX_SIDE_PX = 2048;

export interface ProofPhoto {
  contentType: string;
  width: number;
  height: number;
  data: Buffer;
}

/**
 * Checks that `bytes` are a JPEG, PNG, WebP or GIF, then re-encodes it turned upright and without
 * any metadata (EXIF, XMP, ICC; so no GPS location), scaled down to at most 2048 px a side.
 */
export async function prepareProofPhoto(bytes: Buffer): Promise<ProofPhoto> {
  if (bytes.length === 0) throw new BadRequestError(EMPTY_IMAGE_MESSAGE);
  // Loaded on the first photo: libvips is a fifth of an idle API's memory, and most requests are syncs.
  const [{ fileTypeFromBuffer }, { default: sharp }] = await Promise.all([
    import("file-type"),
    import("sharp"),
  ]);
  const detected = await fileTypeFromBuffer(bytes);
  const mime = detected?.mime;
  const format = mime === undefined ? undefined : ACCEPTED_FORMATS.get(mime as never);
  if (mime === undefined || format === undefined) throw new UnsupportedMediaTypeError(NOT_AN_IMAGE_MESSAGE);
  try {
    const { data, info } = await sharp(bytes, { animated: format === "gif", limitInputPixels: 100_000_000 })
      .rotate()
      .resize({ width: MAX_SIDE_PX, height: MAX_SIDE_PX, fit: "inside", withoutEnlargement: true })
      .toFormat(format)
      .toBuffer({ resolveWithObject: true });
    return { contentType: mime, width: info.width, height: info.height, data };
  } catch {
    throw new UnsupportedMediaTypeError(UNREADABLE_IMAGE_MESSAGE);
  }
}
