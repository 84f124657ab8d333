import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";
import { hashDistance } from "../images/proof-photo.js";

export interface StoredPhoto {
  content_type: string;
  data: Buffer;
}

export interface NewPhoto {
  contentType: string;
  width: number;
  height: number;
  data: Buffer;
  /** The picture's perceptual hash (`perceptualHash` of `images/proof-photo.ts`). */
  perceptualHash: string;
}

/** Manual entries' proof photos, each visible to its own walker only. */
export class StepPhotosRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** Stores a walker's photo (in the caller's transaction, `trx`); returns its id. */
  async add(trx: Kysely<DatabaseSchema>, userId: string, photo: NewPhoto, now: number): Promise<string> {
    const id = randomUUID();
    await trx
      .insertInto("step_photos")
      .values({
        id,
        user_id: userId,
        content_type: photo.contentType,
        width: photo.width,
        height: photo.height,
        byte_size: photo.data.length,
        data: photo.data,
        created_at: now,
        perceptual_hash: photo.perceptualHash,
      })
      .execute();
    return id;
  }

  /**
   * Whether a photo other than `photoId` has a hash within `maxDistance` bits of `hash`: the same
   * picture sent before, by anyone. Reads every stored hash (16 characters a photo).
   */
  async hasSimilar(
    db: Kysely<DatabaseSchema>,
    photoId: string,
    hash: string,
    maxDistance: number,
  ): Promise<boolean> {
    const rows = await db
      .selectFrom("step_photos")
      .select("perceptual_hash")
      .where("perceptual_hash", "is not", null)
      .where("id", "<>", photoId)
      .execute();
    return rows.some(
      (row) => row.perceptual_hash !== null && hashDistance(row.perceptual_hash, hash) <= maxDistance,
    );
  }

  /** Any proof photo, for an operator checking its entry. */
  async findAny(photoId: string): Promise<StoredPhoto | undefined> {
    return this.db
      .selectFrom("step_photos")
      .select(["content_type", "data"])
      .where("id", "=", photoId)
      .executeTakeFirst();
  }

  /** The walker's own proof photo; undefined for another walker's or an unknown id. */
  async find(userId: string, photoId: string): Promise<StoredPhoto | undefined> {
    return this.db
      .selectFrom("step_photos")
      .select(["content_type", "data"])
      .where("id", "=", photoId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }
}
