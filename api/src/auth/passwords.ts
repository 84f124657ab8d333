import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { ZxcvbnFactory } from "@zxcvbn-ts/core";

/**
 * scrypt's cost N as a power of two, by default 2^15 with r=8, p=1: ~32 MiB and tens of
 * milliseconds per hash (OWASP's minimum is 2^17 with more memory; this keeps sign-ups quick on
 * small machines while staying costly to brute-force). PASSWORD_HASH_COST may raise it; only
 * outside production may it lower it, as the tests do, where hundreds of sign-ups would otherwise
 * spend most of their time hashing.
 */
export const DEFAULT_PASSWORD_HASH_COST = 15;
export const PASSWORD_HASH_COSTS = { least: 10, leastInProduction: 15, most: 17 } as const;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      // Room for the cost's memory (128 * N * r bytes) and a little more.
      { N: cost, r: blockSize, p: parallelism, maxmem: 256 * cost * blockSize + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/**
 * Hashes and checks the built-in accounts' passwords. Each hash is stored as
 * `scrypt$N$r$p$salt$hash`, so a hash keeps the cost it was made with: raising the cost later
 * breaks no password, and a check always uses the stored one.
 */
export class PasswordHasher {
  private readonly cost: number;
  /** Stands in for a missing account's hash: same scheme and cost, so checking it takes as long. */
  private dummyHash: Promise<string> | undefined;

  /** `costPower`: N as a power of two (PASSWORD_HASH_COST). */
  constructor(costPower: number = DEFAULT_PASSWORD_HASH_COST) {
    this.cost = 2 ** costPower;
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, this.cost, BLOCK_SIZE, PARALLELISM);
    return [
      "scrypt",
      this.cost,
      BLOCK_SIZE,
      PARALLELISM,
      salt.toString("base64url"),
      key.toString("base64url"),
    ].join("$");
  }

  async verify(password: string, stored: string): Promise<boolean> {
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

  /** Computes the dummy hash ahead, so that the first unknown email is not slower than the rest. */
  prepareDummyHash(): void {
    void this.dummy();
  }

  /**
   * Checks a sign-in's password against the account's stored hash or, when there is no account,
   * against a dummy hash of the same cost and then fails: an unknown email takes as long to refuse
   * as a wrong password, so the answer's timing does not tell who has an account.
   */
  async verifyAccountPassword(password: string, stored: string | undefined): Promise<boolean> {
    if (stored !== undefined) return this.verify(password, stored);
    await this.verify(password, await this.dummy());
    return false;
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.hash(randomBytes(32).toString("base64url"));
    return this.dummyHash;
  }
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;
/** zxcvbn's score: 2 means at least about a million guesses even for an attacker who knows the lists. */
const PASSWORD_MIN_SCORE = 2;

/**
 * zxcvbn-ts with its lists of passwords seen in breaches, common English words, names and keyboard
 * patterns, all in the package (nothing is fetched). Loaded on first use, so that starting the
 * API does not wait for the dictionaries.
 */
let estimator: Promise<ZxcvbnFactory> | undefined;
function passwordEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]).then(
    ([common, english]) =>
      new ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...english.dictionary },
        graphs: common.adjacencyGraphs,
        translations: english.translations,
      }),
  );
  return estimator;
}

/** Words of this site and of the walker: a password made of them is easy to guess for this account. */
function contextWords(email: string, names: string[]): string[] {
  const [local = "", domain = ""] = email.toLowerCase().split("@");
  return ["charity", "steps", "charitysteps", "walker", email.toLowerCase(), local, domain, ...names]
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word.length > 0);
}

/**
 * Why `password` may not be used, or null when it may (NIST SP 800-63B: a length rule and a check
 * against passwords known to be common, breached, or made of this walker's own details; no rules
 * about which kinds of characters it holds).
 */
export async function passwordWeakness(
  password: string,
  email: string,
  names: string[] = [],
): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `Your password is too weak: use at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `Your password is too long: use at most ${PASSWORD_MAX_LENGTH} characters.`;
  }
  const lowered = password.toLowerCase();
  const lowerEmail = email.toLowerCase();
  if (lowered === lowerEmail || lowered === lowerEmail.split("@")[0]) {
    return "Your password is too weak: it must not be your email address.";
  }
  const result = (await passwordEstimator()).check(password, contextWords(email, names));
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const why = result.feedback.warning ?? "Common words, names and patterns are among the first guesses.";
  return `Your password is too easy to guess. ${why} Try a longer phrase of a few unrelated words.`;
}
