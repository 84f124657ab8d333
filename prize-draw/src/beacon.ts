/**
 * Checking the drand round mixed into a draw, offline: its BLS signature against the public key
 * of the drand network it names, through drand's own client library.
 */
import type { DrawBeacon } from "@charity-steps/shared-types";
// Types only: drand's client is loaded when a round is checked or placed, not with this package.
// Loading it computes its curves' constants, which every process that imports this package (the
// API among them) would otherwise pay at start, for a draw it rarely runs.
import type { ChainClient, ChainInfo, RandomnessBeacon } from "drand-client";

/**
 * The drand networks whose rounds can be checked without asking drand: their public keys, as
 * drand publishes them at `https://api.drand.sh/{hash}/info`. Both sign each round number alone
 * (unchained), so a round is checked from its own signature. A draw's beacon should come from
 * quicknet.
 */
export const KNOWN_DRAND_CHAINS: Readonly<Record<string, ChainInfo>> = {
  "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971": {
    public_key:
      "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
    period: 3,
    genesis_time: 1692803367,
    hash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    groupHash: "f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e",
    schemeID: "bls-unchained-g1-rfc9380",
    metadata: { beaconID: "quicknet" },
  },
  cc9c398442737cbd141526600919edd69f1d6f9b4adb67e4d912fbc64341a9a5: {
    public_key:
      "b15b65b46fb29104f6a4b5d1e11a8da6344463973d423661bb0804846a0ecd1ef93c25057f1c0baab2ac53e56c662b66072f6d84ee791a3382bfb055afab1e6a375538d8ffc451104ac971d2dc9b168e2d3246b0be2015969cbaac298f6502da",
    period: 3,
    genesis_time: 1689232296,
    hash: "cc9c398442737cbd141526600919edd69f1d6f9b4adb67e4d912fbc64341a9a5",
    groupHash: "40d49d910472d4adb1d67f65db8332f11b4284eecf05c05c5eacd5eef7d40e2d",
    schemeID: "bls-unchained-g1-rfc9380",
    metadata: { beaconID: "quicknet-t" },
  },
};

export type BeaconSignatureCheck =
  | { status: "valid"; network: string }
  | { status: "invalid"; network: string; reason: string }
  | { status: "unknown-network" };

/**
 * Whether the round's signature is the named network's signature of that round (and its
 * randomness SHA-256 of the signature). drand's client checks it; it is handed the published round
 * and the network's known key instead of fetching them, so nothing leaves the machine.
 */
export async function checkBeaconSignature(beacon: DrawBeacon): Promise<BeaconSignatureCheck> {
  const info = KNOWN_DRAND_CHAINS[beacon.chainHash];
  if (info === undefined) return { status: "unknown-network" };
  const network = info.metadata.beaconID;
  const published: RandomnessBeacon = {
    round: beacon.round,
    randomness: beacon.randomness,
    signature: beacon.signature,
  };
  const { defaultChainOptions, fetchBeacon } = await import("drand-client");
  const offline: ChainClient = {
    options: { ...defaultChainOptions, disableBeaconVerification: false },
    latest: async () => published,
    get: async () => published,
    chain: () => ({ baseUrl: `offline:${beacon.chainHash}`, info: async () => info }),
  };
  try {
    await fetchBeacon(offline, beacon.round);
    return { status: "valid", network };
  } catch (error) {
    return { status: "invalid", network, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The first round whose time (genesis_time + (round - 1) × period) is strictly after `time` (ms):
 * the round a draw closing at `time` mixes in, unknown to anyone when its tickets were counted.
 */
export async function firstRoundAfter(
  info: Pick<ChainInfo, "genesis_time" | "period">,
  time: number,
): Promise<number> {
  if (time < info.genesis_time * 1000) return 1;
  const { roundAt } = await import("drand-client");
  return roundAt(time, info as ChainInfo) + 1;
}
