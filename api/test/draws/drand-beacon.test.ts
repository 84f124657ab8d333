/**
 * The draw's beacon source against a real (test) drand network: the round it picks, when it says
 * "not-yet", and the operator's message for each way a server can fail or lie.
 */
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { DrawBeacon } from "@charity-steps/shared-types";
import { Value } from "typebox/value";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type DrawBeaconConfig, loadConfig } from "../../src/config.js";
import { BeaconError, drandBeaconSource, MAX_BEACON_ANSWER_BYTES } from "../../src/draws/drand-beacon.js";
import { type DrandTestNetwork, startDrandTestNetwork } from "../support/drand-test-network.js";

const GENESIS = 1_767_225_600; // 2026-01-01T00:00:00Z, round 1
const PERIOD = 3;
const at = (round: number) => (GENESIS + (round - 1) * PERIOD) * 1000;

let clock = at(100);
let network: DrandTestNetwork;
let other: DrandTestNetwork;
const servers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  network = await startDrandTestNetwork({ genesisTime: GENESIS, period: PERIOD, now: () => clock });
  other = await startDrandTestNetwork({ genesisTime: GENESIS, period: PERIOD, now: () => clock });
});
afterAll(async () => {
  await network?.close();
  await other?.close();
});
afterEach(async () => {
  clock = at(100);
  network.requests.length = 0;
  await Promise.all(servers.splice(0).map((close) => close()));
});

const pinned = (net: DrandTestNetwork): DrawBeaconConfig => ({
  url: net.url,
  chainHash: net.chainHash,
  publicKey: net.publicKey,
});
const source = (config = pinned(network), options: Parameters<typeof drandBeaconSource>[1] = {}) =>
  drandBeaconSource(config, { now: () => clock, ...options });

/** A fetch that hands the real answer's JSON to `change` first. */
function tampering(change: (path: string, body: Record<string, unknown>) => unknown): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.ok) return response;
    const body = change(new URL(String(input)).pathname, await response.json());
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
}

async function rawServer(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/${network.chainHash}`;
}

/** drand's client logs why it refuses a round; the BeaconError is what is checked. */
async function refusal(promise: Promise<unknown>): Promise<BeaconError> {
  const log = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(BeaconError);
    return error as BeaconError;
  } finally {
    log.mockRestore();
  }
}

describe("the first round after a draw's close", () => {
  it("is the first round whose time is strictly after the instant, verified, in DrawBeacon's shape", async () => {
    const beacon = await source().roundAfter(new Date(at(40) + 1500));
    expect(beacon).toEqual({ ...network.sign(41), chainHash: network.chainHash });
    expect(Value.Check(DrawBeacon, beacon)).toBe(true);
  });

  it("is the next round when the instant is exactly a round's time", async () => {
    expect(await source().roundAfter(new Date(at(40)))).toMatchObject({ round: 41 });
    expect(await source().roundAfter(new Date(at(40) - 1))).toMatchObject({ round: 40 });
    expect(await source().roundAfter(new Date(at(1)))).toMatchObject({ round: 2 });
  });

  it("is round 1 for an instant before the chain's genesis", async () => {
    expect(await source().roundAfter(new Date(at(1) - 60_000))).toMatchObject({ round: 1 });
  });

  it("is not-yet before its time, without asking for it", async () => {
    clock = at(41) - 1;
    const beacons = source();
    expect(await beacons.roundAfter(new Date(at(40)))).toBe("not-yet");
    expect(network.requests.filter((path) => path.includes("/public/"))).toEqual([]);
    clock = at(41);
    expect(await beacons.roundAfter(new Date(at(40)))).toMatchObject({ round: 41 });
  });

  it("is not-yet while the server has not published it (404 or 425), though our clock says it is due", async () => {
    clock = at(41) - 1;
    const early = drandBeaconSource(pinned(network), { now: () => at(41) + 500 });
    expect(await early.roundAfter(new Date(at(40)))).toBe("not-yet");
    expect(network.requests.at(-1)).toBe(`/${network.chainHash}/public/41`);

    const tooEarly: typeof fetch = async (input, init) =>
      String(input).includes("/public/") ? new Response("Too Early", { status: 425 }) : fetch(input, init);
    expect(await source(pinned(network), { fetch: tooEarly }).roundAfter(new Date(at(40)))).toBe("not-yet");
  });

  it("asks for the chain's info once per source", async () => {
    const beacons = source();
    await beacons.roundAfter(new Date(at(10)));
    await beacons.roundAfter(new Date(at(20)));
    expect(network.requests.filter((path) => path.endsWith("/info"))).toHaveLength(1);
  });
});

describe("a BeaconError an operator can act on", () => {
  it("for a round signed by another key", async () => {
    const swapped = tampering((path, body) => (path.includes("/public/") ? other.sign(41) : body));
    const error = await refusal(source(pinned(network), { fetch: swapped }).roundAfter(new Date(at(40))));
    expect(error.message).toMatch(
      /Round 41 .* fails drand's signature check against the configured public key/,
    );
  });

  it("for a tampered signature whose randomness was made to match", async () => {
    const { signature, randomness } = network.sign(42);
    const swapped = tampering((path, body) =>
      path.includes("/public/") ? { ...body, signature, randomness } : body,
    );
    const error = await refusal(source(pinned(network), { fetch: swapped }).roundAfter(new Date(at(40))));
    expect(error.message).toMatch(/fails drand's signature check/);
  });

  it("for randomness that is not SHA-256 of the signature, or another round than asked", async () => {
    const wrongRandomness = tampering((path, body) =>
      path.includes("/public/") ? { ...body, randomness: "00".repeat(32) } : body,
    );
    expect(
      (await refusal(source(pinned(network), { fetch: wrongRandomness }).roundAfter(new Date(at(40)))))
        .message,
    ).toMatch(/randomness that is not SHA-256 of its signature/);
    const wrongRound = tampering((path, body) => (path.includes("/public/") ? network.sign(40) : body));
    expect(
      (await refusal(source(pinned(network), { fetch: wrongRound }).roundAfter(new Date(at(40))))).message,
    ).toMatch(/answered round 40 when asked for round 41/);
  });

  it("for a server serving another chain than the configured one", async () => {
    const noSuchChain = { ...pinned(other), url: network.url.replace(network.chainHash, other.chainHash) };
    const error = await refusal(source(noSuchChain).roundAfter(new Date(at(40))));
    expect(error.message).toMatch(/serves no drand chain: .*\/info is not found \(HTTP 404\)$/);
    const elsewhere = { ...pinned(other), url: network.url };
    expect((await refusal(source(elsewhere).roundAfter(new Date(at(40))))).message).toBe(
      `${network.url} serves drand chain ${network.chainHash}, not the configured chain ${other.chainHash}`,
    );
    const wrongKey = { ...pinned(network), publicKey: other.publicKey };
    expect((await refusal(source(wrongKey).roundAfter(new Date(at(40))))).message).toMatch(
      /reports a public key .* other than the configured one/,
    );
  });

  it("for chain info that does not hash to the chain's hash (a shifted genesis)", async () => {
    const shifted = tampering((path, body) =>
      path.endsWith("/info") ? { ...body, genesis_time: GENESIS - 3 * PERIOD } : body,
    );
    const error = await refusal(source(pinned(network), { fetch: shifted }).roundAfter(new Date(at(40))));
    expect(error.message).toMatch(/does not hash to its chain hash/);
  });

  it("for an unreachable server", async () => {
    const url = await rawServer(() => {});
    await servers.pop()?.();
    const error = await refusal(source({ ...pinned(network), url }).roundAfter(new Date(at(40))));
    expect(error.message).toMatch(
      /^Could not reach the drand server at http:\/\/127\.0\.0\.1:\d+\/.*ECONNREFUSED/,
    );
  });

  it("for a server that does not answer in time", async () => {
    const url = await rawServer(() => {});
    const error = await refusal(
      source({ ...pinned(network), url }, { timeoutMs: 300 }).roundAfter(new Date(at(40))),
    );
    expect(error.message).toMatch(/did not answer .*\/info within 300 ms/);
  });

  it("for an answer larger than a drand answer can be, declared or streamed", async () => {
    const big = "x".repeat(MAX_BEACON_ANSWER_BYTES + 1);
    const declared = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": big.length });
      response.end(big);
    });
    expect(
      (await refusal(source({ ...pinned(network), url: declared }).roundAfter(new Date(at(40))))).message,
    ).toMatch(/with more than 65536 bytes/);
    const streamed = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = "x".repeat(16 * 1024);
      for (let i = 0; i < 8; i++) response.write(chunk);
      response.end();
    });
    expect(
      (await refusal(source({ ...pinned(network), url: streamed }).roundAfter(new Date(at(40))))).message,
    ).toMatch(/with more than 65536 bytes/);
  });

  it("for an answer that is not a drand answer, or an HTTP error", async () => {
    const notJson = await rawServer((_request, response) => response.end("<html>"));
    expect(
      (await refusal(source({ ...pinned(network), url: notJson }).roundAfter(new Date(at(40))))).message,
    ).toMatch(/something that is not JSON/);
    const failing = await rawServer((_request, response) => {
      response.statusCode = 502;
      response.end();
    });
    expect(
      (await refusal(source({ ...pinned(network), url: failing }).roundAfter(new Date(at(40))))).message,
    ).toMatch(/answered HTTP 502/);
    const noInfo = tampering((path, body) => (path.endsWith("/info") ? { hash: body.hash } : body));
    expect(
      (await refusal(source(pinned(network), { fetch: noInfo }).roundAfter(new Date(at(40))))).message,
    ).toMatch(/is not a drand chain's info/);
    const noRound = tampering((path, body) => (path.includes("/public/") ? { round: 41 } : body));
    expect(
      (await refusal(source(pinned(network), { fetch: noRound }).roundAfter(new Date(at(40))))).message,
    ).toMatch(/answered round 41 with something that is not a drand round/);
  });

  it("for a chained drand network, whose rounds a draw's results cannot prove", async () => {
    const chained = tampering((path, body) =>
      path.endsWith("/info") ? { ...body, schemeID: "pedersen-bls-chained" } : body,
    );
    expect(
      (await refusal(source(pinned(network), { fetch: chained }).roundAfter(new Date(at(40))))).message,
    ).toMatch(/scheme "pedersen-bls-chained"/);
  });
});

describe("configured for quicknet", () => {
  it("pins quicknet's hash and key from DRAW_BEACON_URL alone, and refuses a server that is not quicknet", async () => {
    const quicknet = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";
    const config = loadConfig({ DRAW_BEACON_URL: `https://api.drand.sh/${quicknet}` }).drawBeacon;
    expect(config).toMatchObject({ url: `https://api.drand.sh/${quicknet}`, chainHash: quicknet });
    // The test network posing as quicknet at quicknet's URL: its own hash and key give it away.
    const impostor: typeof fetch = (input, init) =>
      fetch(String(input).replace(`https://api.drand.sh/${quicknet}`, network.url), init);
    const error = await refusal(
      drandBeaconSource(config as DrawBeaconConfig, { fetch: impostor }).roundAfter(new Date(at(40))),
    );
    expect(error.message).toMatch(`not the configured chain ${quicknet}`);
  });
});
