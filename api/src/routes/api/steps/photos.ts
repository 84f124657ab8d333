import { ErrorResponse, PHOTOS_PATH, PhotoParams } from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { signedInUser } from "../../../auth/sessions.js";
import { NotFoundError } from "../../../errors.js";

export const PHOTO_NOT_FOUND_MESSAGE = "There is no such photo among your entries.";

/** The only types a stored photo can have (it was sniffed and re-encoded on the way in). */
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/gif"]);

/**
 * `GET /api/steps/photos/:id`: a manual entry's proof photo, to the walker who sent it and nobody
 * else (another walker's photo is answered like an unknown one: 404). Served as an image that cannot
 * be run as a page: its own type only (nosniff), no scripts, no embedding elsewhere, never stored.
 */
export const photoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { stepPhotos } = app.repositories;

  app.get(
    `${PHOTOS_PATH}/:id`,
    {
      schema: {
        params: PhotoParams,
        response: {
          // The image's bytes (Fastify sends a Buffer as it is).
          200: Type.Unsafe<Buffer>(Type.String({ description: "JPEG, PNG, WebP or GIF" })),
          400: ErrorResponse,
          401: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const photo = await stepPhotos.find(signedInUser(request).id, request.params.id);
      if (!photo) throw new NotFoundError(PHOTO_NOT_FOUND_MESSAGE);
      const type = IMAGE_TYPES.has(photo.content_type) ? photo.content_type : "application/octet-stream";
      return (
        reply
          .code(200)
          .header("content-type", type)
          .header("content-disposition", "inline")
          // Not even the browser's own cache keeps it: after sign-out it must not be viewable there.
          .header("cache-control", "no-store")
          .header("content-security-policy", "default-src 'none'; sandbox")
          .header("x-content-type-options", "nosniff")
          .send(photo.data)
      );
    },
  );
};
