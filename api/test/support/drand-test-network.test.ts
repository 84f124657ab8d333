/**
 * The test network is real drand to drand's own client: its rounds pass the library's check, and
 * the library refuses a tampered one. Its chain hash is computed as drand computes one.
 */
import { createHash } from "node:crypto";
import { checkBeaconSignature, KNOWN_DRAND_CHAINS } from "@charity-steps/prize-draw";
import {
  type ChainClient,
  defaultChainOptions,
  fetchBeacon,
  HttpCachingChain,
  HttpChainClient,
  type RandomnessBeacon,
} from "drand-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { drandChainHash } from "../../src/draws/drand-beacon.js";
import { type DrandTestNetwork, startDrandTestNetwork } from "./drand-test-network.js";

const GENESIS = 1_767_225_600; // 2026-01-01T00:00:00Z
const PERIOD = 3;
let clock = (GENESIS + 30) * 1000; // round 11's time
let network: DrandTestNetwork;
let other: DrandTestNetwork;

beforeAll(async () => {
  network = await startDrandTestNetwork({ genesisTime: GENESIS, period: PERIOD, now: () => clock });
  other = await startDrandTestNetwork({ genesisTime: GENESIS, period: PERIOD, now: () => clock });
});
afterAll(async () => {
  await network?.close();
  await other?.close();
});

/** drand's own HTTP client for the network, its key and hash pinned as a deployment would. */
function drandClient(net: DrandTestNetwork): HttpChainClient {
  const options = {
    ...defaultChainOptions,
    chainVerificationParams: { chainHash: net.chainHash, publicKey: net.publicKey },
  };
  return new HttpChainClient(new HttpCachingChain(net.url, options), options);
}

/** drand's client checking `beacon` as the network's answer for `round`. */
function answering(net: DrandTestNetwork, beacon: RandomnessBeacon): ChainClient {
  const real = drandClient(net);
  return {
    options: real.options,
    chain: () => real.chain(),
    latest: async () => beacon,
    get: async () => beacon,
  };
}

/** A round carrying `signature`, its randomness SHA-256 of it as drand's is. */
function withSignature(round: number, signature: string): RandomnessBeacon {
  const randomness = createHash("sha256").update(Buffer.from(signature, "hex")).digest("hex");
  return { round, randomness, signature };
}

/** The library logs why it refuses a round; the refusal itself is what these tests check. */
async function refused(promise: Promise<unknown>) {
  const log = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await expect(promise).rejects.toThrow("The beacon retrieved was not valid!");
  } finally {
    log.mockRestore();
  }
}

describe("the drand test network", () => {
  it("computes chain hashes as drand does (quicknet and its testnet reproduce)", () => {
    for (const [hash, info] of Object.entries(KNOWN_DRAND_CHAINS)) expect(drandChainHash(info)).toBe(hash);
    expect(network.info.hash).toBe(drandChainHash(network.info));
    expect(network.url.endsWith(`/${network.chainHash}`)).toBe(true);
    expect(network.publicKey).toMatch(/^[0-9a-f]{192}$/);
  });

  it("serves rounds that drand's HTTP client fetches and verifies", async () => {
    const client = drandClient(network);
    expect(await client.chain().info()).toEqual(network.info);
    const beacon = await fetchBeacon(client, 7);
    expect(beacon).toEqual(network.sign(7));
    expect(beacon.signature).toMatch(/^[0-9a-f]{96}$/);
    const latest = await client.latest();
    expect(latest.round).toBe(11);
  });

  it("answers 404 for a round whose time has not come, by the test's clock", async () => {
    const response = await fetch(`${network.url}/public/12`);
    expect(response.status).toBe(404);
    clock += PERIOD * 1000;
    try {
      expect((await fetch(`${network.url}/public/12`)).status).toBe(200);
    } finally {
      clock -= PERIOD * 1000;
    }
    expect((await fetch(`${network.url.replace(network.chainHash, other.chainHash)}/info`)).status).toBe(404);
  });

  it("is refused by drand's client when a signature is tampered with", async () => {
    const round = network.sign(5);
    const flipped = `${round.signature.slice(0, -2)}${round.signature.endsWith("00") ? "01" : "00"}`;
    // The randomness made to match, so that only the BLS check stands in the way.
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(fetchBeacon(answering(network, withSignature(5, flipped)), 5)).rejects.toThrow();
    } finally {
      log.mockRestore();
    }
    // A valid point that is not this round's signature: round 6's.
    await refused(fetchBeacon(answering(network, withSignature(5, network.sign(6).signature)), 5));
    // The right signature with other randomness.
    await refused(fetchBeacon(answering(network, { ...round, randomness: "00".repeat(32) }), 5));
  });

  it("is refused by drand's client for a round signed by another key", async () => {
    await refused(fetchBeacon(answering(network, other.sign(5)), 5));
  });

  it("is refused by drand's client for the wrong round number", async () => {
    await refused(fetchBeacon(answering(network, network.sign(4)), 5));
  });

  it("is an unknown network to the offline verifier", async () => {
    const round = network.sign(3);
    expect(await checkBeaconSignature({ ...round, chainHash: network.chainHash })).toEqual({
      status: "unknown-network",
    });
  });
});
