import { createHash } from "node:crypto";

/**
 * The one hash the draw uses. Node's is synchronous, which keeps the whole algorithm a plain
 * function; a browser build would swap this module for one over a synchronous SHA-256.
 */
export function sha256(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

/** Lower-case or upper-case hex of whole bytes; anything else is refused with `what` named. */
export function fromHex(hex: string, what: string): Uint8Array {
  if (!/^([0-9a-fA-F]{2})*$/.test(hex))
    throw new Error(`${what} must be hex (pairs of 0-9, a-f), got "${hex}"`);
  return new Uint8Array(Buffer.from(hex, "hex"));
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export const sha256Hex = (...parts: Uint8Array[]): string => toHex(sha256(...parts));
