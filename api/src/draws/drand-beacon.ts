/**
 * The drand round a month's draw mixes in: the first round of the configured chain published after
 * the close, fetched over HTTP and checked by drand's client library against the chain's pinned
 * public key before the draw may use it.
 */
import { createHash } from "node:crypto";
import { firstRoundAfter } from "@charity-steps/prize-draw";
import type { DrawBeacon } from "@charity-steps/shared-types";
import type { Chain, ChainClient, ChainInfo, RandomnessBeacon } from "drand-client";
import { Type } from "typebox";
import { Value } from "typebox/value";
import type { DrawBeaconConfig } from "../config.js";

/** Which chain to ask, and what it must be: the hash and key are trusted from here, never from the server. */
export interface BeaconSource {
  /**
   * The chain's first round whose time is strictly after `instant`, checked; "not-yet" until that
   * round is published. Any other failure is a BeaconError.
   */
  roundAfter(instant: Date): Promise<DrawBeacon | "not-yet">;
}

/** The drand server could not give a checked round: unreachable, too slow, or answering something wrong. */
export class BeaconError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BeaconError";
  }
}

export interface DrandBeaconOptions {
  fetch?: typeof fetch;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** How long one request may take, answer included. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** A chain's info or one round is well under 1 KiB; anything this large is not a drand answer. */
export const MAX_BEACON_ANSWER_BYTES = 64 * 1024;

/**
 * Schemes that sign each round number alone: the round's own signature proves it, which is what a
 * published `DrawBeacon` carries. A chained round's check also needs the previous signature.
 */
const UNCHAINED_SCHEMES = new Set([
  "pedersen-bls-unchained",
  "bls-unchained-on-g1",
  "bls-unchained-g1-rfc9380",
  "bls-bn254-unchained-on-g1",
]);

const HEX = "^(?:[0-9a-fA-F]{2})+$";
const HEX32 = "^[0-9a-fA-F]{64}$";

/** A chain's `/info` as drand serves it (the fields drand's client reads). */
const ChainInfoAnswer = Type.Object({
  public_key: Type.String({ pattern: HEX }),
  period: Type.Integer({ minimum: 1 }),
  genesis_time: Type.Integer({ minimum: 0 }),
  hash: Type.String({ pattern: HEX32 }),
  groupHash: Type.String({ pattern: HEX }),
  schemeID: Type.String(),
  metadata: Type.Object({ beaconID: Type.String() }),
});

/** A round from `/public/{round}`; a chained round's previous signature is not read. */
const RoundAnswer = Type.Object({
  round: Type.Integer({ minimum: 1 }),
  randomness: Type.String({ pattern: HEX32 }),
  signature: Type.String({ pattern: HEX }),
});

/**
 * The hash drand names a chain by: SHA-256 of uint32be(period) ‖ int64be(genesis_time) ‖ public key
 * ‖ group hash ‖ beacon id (left out for the `default` beacon). It binds the chain's period and
 * genesis time to its pinned hash, so a server cannot shift which round counts as "after the close".
 */
export function drandChainHash(
  info: Pick<ChainInfo, "period" | "genesis_time" | "public_key" | "groupHash" | "metadata">,
): string {
  const times = Buffer.alloc(12);
  times.writeUInt32BE(info.period, 0);
  times.writeBigInt64BE(BigInt(info.genesis_time), 4);
  const hash = createHash("sha256")
    .update(times)
    .update(Buffer.from(info.public_key, "hex"))
    .update(Buffer.from(info.groupHash, "hex"));
  if (info.metadata.beaconID !== "default") hash.update(info.metadata.beaconID);
  return hash.digest("hex");
}

/** A round the server does not have yet: drand answers 404 (or 425) for a future round. */
class NotPublished extends Error {}

export function drandBeaconSource(given: DrawBeaconConfig, options: DrandBeaconOptions = {}): BeaconSource {
  const config: DrawBeaconConfig = {
    url: given.url.replace(/\/+$/, ""),
    chainHash: given.chainHash.toLowerCase(),
    publicKey: given.publicKey.toLowerCase(),
  };
  const fetchImpl = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const where = config.url;
  let cachedInfo: ChainInfo | undefined;

  async function getJson(url: string): Promise<unknown> {
    const signal = AbortSignal.timeout(timeoutMs);
    const failed = (error: unknown) =>
      signal.aborted
        ? new BeaconError(`The drand server at ${where} did not answer ${url} within ${timeoutMs} ms`, {
            cause: error,
          })
        : new BeaconError(`Could not reach the drand server at ${where} (${url}): ${describe(error)}`, {
            cause: error,
          });
    let response: Response;
    try {
      response = await fetchImpl(url, { signal, headers: { accept: "application/json" } });
    } catch (error) {
      throw failed(error);
    }
    if (response.status === 404 || response.status === 425) {
      await response.body?.cancel().catch(() => {});
      throw new NotPublished(url);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new BeaconError(`The drand server at ${where} answered HTTP ${response.status} to ${url}`);
    }
    let text: string;
    try {
      text = await boundedText(response, MAX_BEACON_ANSWER_BYTES);
    } catch (error) {
      if (error instanceof BeaconError) throw error;
      throw failed(error);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new BeaconError(`The drand server at ${where} answered ${url} with something that is not JSON`);
    }
  }

  async function chainInfo(): Promise<ChainInfo> {
    if (cachedInfo !== undefined) return cachedInfo;
    let answer: unknown;
    try {
      answer = await getJson(`${config.url}/info`);
    } catch (error) {
      if (error instanceof NotPublished) {
        throw new BeaconError(`${where} serves no drand chain: ${where}/info is not found (HTTP 404)`);
      }
      throw error;
    }
    cachedInfo = checkedInfo(answer, config);
    return cachedInfo;
  }

  return {
    async roundAfter(instant) {
      const time = instant.getTime();
      if (!Number.isFinite(time)) throw new BeaconError("The draw's close is not a valid instant");
      const info = await chainInfo();
      const round = await firstRoundAfter(info, time);
      // drand's client is loaded by the first draw that asks: most processes never run one.
      const { defaultChainOptions, fetchBeacon, roundTime } = await import("drand-client");
      if (now() < roundTime(info, round)) return "not-yet";
      // drand's HttpChainClient asks with the global fetch, unbounded in time and size; this client
      // makes the same requests bounded, and drand's fetchBeacon checks what it answers.
      const client: ChainClient = {
        options: {
          ...defaultChainOptions,
          disableBeaconVerification: false,
          chainVerificationParams: { chainHash: config.chainHash, publicKey: config.publicKey },
        },
        chain: (): Chain => ({ baseUrl: config.url, info: async () => info }),
        get: async (wanted) => checkedRound(await getJson(`${config.url}/public/${wanted}`), wanted, where),
        latest: () => Promise.reject(new Error("a draw asks for one round by its number, never the latest")),
      };
      let beacon: RandomnessBeacon;
      try {
        beacon = await fetchBeacon(client, round);
      } catch (error) {
        if (error instanceof NotPublished) return "not-yet";
        if (error instanceof BeaconError) throw error;
        throw new BeaconError(
          `Round ${round} from ${where} fails drand's signature check against the configured public key: ` +
            "the server is not serving the configured chain's rounds",
          { cause: error },
        );
      }
      return {
        round: beacon.round,
        randomness: beacon.randomness,
        signature: beacon.signature,
        chainHash: info.hash,
      };
    },
  };
}

/** The chain's info, refused unless it is the configured chain, consistent with its hash, and unchained. */
function checkedInfo(answer: unknown, config: DrawBeaconConfig): ChainInfo {
  const where = config.url;
  if (!Value.Check(ChainInfoAnswer, answer))
    throw new BeaconError(`${where}/info is not a drand chain's info`);
  const info = answer;
  const checked: ChainInfo = {
    public_key: info.public_key.toLowerCase(),
    period: info.period,
    genesis_time: info.genesis_time,
    hash: info.hash.toLowerCase(),
    groupHash: info.groupHash.toLowerCase(),
    schemeID: info.schemeID,
    metadata: { beaconID: info.metadata.beaconID },
  };
  if (checked.hash !== config.chainHash) {
    throw new BeaconError(
      `${where} serves drand chain ${checked.hash}, not the configured chain ${config.chainHash}`,
    );
  }
  if (checked.public_key !== config.publicKey) {
    throw new BeaconError(
      `${where} reports a public key for chain ${checked.hash} other than the configured one`,
    );
  }
  if (drandChainHash(checked) !== checked.hash) {
    throw new BeaconError(
      `${where}/info does not hash to its chain hash ${checked.hash}: its period, genesis time or group hash are not the chain's`,
    );
  }
  if (!UNCHAINED_SCHEMES.has(checked.schemeID)) {
    throw new BeaconError(
      `${where} is a chain of scheme "${checked.schemeID}", whose rounds cannot be checked from their own ` +
        "signature; use an unchained chain such as drand quicknet",
    );
  }
  return checked;
}

/** The round as the server gave it, refused when it is not the asked round or not a drand round at all. */
function checkedRound(answer: unknown, wanted: number, where: string): RandomnessBeacon {
  if (!Value.Check(RoundAnswer, answer)) {
    throw new BeaconError(`${where} answered round ${wanted} with something that is not a drand round`);
  }
  const round = answer;
  if (round.round !== wanted) {
    throw new BeaconError(`${where} answered round ${round.round} when asked for round ${wanted}`);
  }
  const signature = round.signature.toLowerCase();
  const randomness = round.randomness.toLowerCase();
  if (createHash("sha256").update(Buffer.from(signature, "hex")).digest("hex") !== randomness) {
    throw new BeaconError(
      `Round ${wanted} from ${where} has a randomness that is not SHA-256 of its signature`,
    );
  }
  // Only the fields an unchained round has, so drand's client checks it under the chain's own scheme.
  return { round: wanted, randomness, signature };
}

/** The answer's text, refused past `limit` bytes without reading the rest. */
async function boundedText(response: Response, limit: number): Promise<string> {
  const tooLarge = () =>
    new BeaconError(`The drand server answered ${response.url || "a request"} with more than ${limit} bytes`);
  const declared = Number(response.headers.get("content-length"));
  if (declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function describe(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
