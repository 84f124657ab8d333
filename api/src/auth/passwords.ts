import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

// scrypt at N=2^15, r=8, p=1: ~32 MiB and tens of milliseconds per hash (OWASP's minimum is 2^17
// with more memory; this keeps sign-ups quick on small machines while staying costly to brute-force).
const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { N: cost, r: blockSize, p: parallelism, maxmem: MAX_MEMORY },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, so that the cost can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST, BLOCK_SIZE, PARALLELISM);
  return [
    "scrypt",
    COST,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, blockSize, parallelism, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await derive(
    password,
    Buffer.from(salt, "base64url"),
    Number(cost),
    Number(blockSize),
    Number(parallelism),
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

const COMMON_PASSWORDS = new Set([
  "password",
  "password1",
  "password123",
  "12345678",
  "123456789",
  "1234567890",
  "qwertyuiop",
  "qwerty123",
  "iloveyou",
  "letmein1",
  "11111111",
  "00000000",
  "abc12345",
  "welcome1",
  "charitysteps",
]);

/** Why `password` is too weak, or null when it is acceptable (NIST 800-63B: length and blocklist). */
export function passwordWeakness(password: string, email: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `Your password is too weak: use at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `Your password is too long: use at most ${PASSWORD_MAX_LENGTH} characters.`;
  }
  const lowered = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lowered) || new Set(lowered).size < 3) {
    return "Your password is too weak: it is too common or too easy to guess. Choose another.";
  }
  if (lowered === email.toLowerCase() || lowered === email.toLowerCase().split("@")[0]) {
    return "Your password is too weak: it must not be your email address.";
  }
  return null;
}
