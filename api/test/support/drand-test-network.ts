/**
 * A drand network of one signer on 127.0.0.1, for tests: a fresh BLS12-381 key signs each round the
 * way drand quicknet does (scheme `bls-unchained-g1-rfc9380`: the signature, on G1, of
 * SHA-256(uint64be(round)) under the DST drand's client checks with), and a node:http server
 * answers drand's HTTP API for it. A round is served only once its time has come by the clock the
 * test gives, as drand answers 404 for a future round.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { bls12_381 as bls } from "@noble/curves/bls12-381";
import type { ChainInfo } from "drand-client";
import { drandChainHash } from "../../src/draws/drand-beacon.js";

/** The domain separation tag of drand's `bls-unchained-g1-rfc9380` scheme (RFC 9380, on G1). */
export const DRAND_G1_RFC9380_DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";
export const DRAND_TEST_SCHEME = "bls-unchained-g1-rfc9380";

export interface PublishedRound {
  round: number;
  randomness: string;
  signature: string;
}

export interface DrandTestNetworkOptions {
  /** Epoch seconds: round 1's time. */
  genesisTime: number;
  /** Seconds between rounds. */
  period: number;
  /** The network's clock in epoch milliseconds; rounds whose time is after it are not served. */
  now?: () => number;
  /** The signer's BLS secret key (32 bytes); a fresh one by default. */
  secretKey?: Uint8Array;
}

export interface DrandTestNetwork {
  /** The chain's base URL, `http://127.0.0.1:{port}/{chain hash}`, as a DRAW_BEACON_URL. */
  url: string;
  chainHash: string;
  /** The signer's public key on G2, compressed, hex. */
  publicKey: string;
  info: ChainInfo;
  /** A round as the network signs it, whether or not its time has come. */
  sign(round: number): PublishedRound;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Round `round` signed with `secretKey` under drand's `bls-unchained-g1-rfc9380` scheme. */
export function signDrandRound(secretKey: Uint8Array, round: number): PublishedRound {
  const roundBytes = Buffer.alloc(8);
  roundBytes.writeBigUInt64BE(BigInt(round));
  const message = createHash("sha256").update(roundBytes).digest();
  const point = bls.shortSignatures.hash(message, DRAND_G1_RFC9380_DST);
  const signature = bls.shortSignatures.sign(point, secretKey).toHex(true);
  const randomness = createHash("sha256").update(Buffer.from(signature, "hex")).digest("hex");
  return { round, randomness, signature };
}

export async function startDrandTestNetwork(options: DrandTestNetworkOptions): Promise<DrandTestNetwork> {
  const { genesisTime, period } = options;
  const now = options.now ?? Date.now;
  const secretKey = options.secretKey ?? bls.utils.randomSecretKey();
  const publicKey = bls.shortSignatures.getPublicKey(secretKey).toHex(true);
  const withoutHash = {
    public_key: publicKey,
    period,
    genesis_time: genesisTime,
    groupHash: randomBytes(32).toString("hex"),
    schemeID: DRAND_TEST_SCHEME,
    metadata: { beaconID: "charity-steps-test" },
  };
  const chainHash = drandChainHash(withoutHash);
  const info: ChainInfo = { ...withoutHash, hash: chainHash };
  const published = (round: number) => round >= 1 && (genesisTime + (round - 1) * period) * 1000 <= now();
  const requests: string[] = [];

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    requests.push(path);
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const [hash, ...rest] = path.split("/").filter((part) => part !== "");
    if (hash !== chainHash) return answer(404, { error: "no such chain" });
    if (rest.length === 1 && rest[0] === "info") return answer(200, info);
    if (rest.length === 2 && rest[0] === "public") {
      const latest = Math.floor((now() - genesisTime * 1000) / (period * 1000)) + 1;
      const round = rest[1] === "latest" ? latest : /^\d{1,15}$/.test(rest[1] ?? "") ? Number(rest[1]) : 0;
      if (!published(round)) return answer(404, { error: "round not yet published" });
      return answer(200, signDrandRound(secretKey, round));
    }
    answer(404, { error: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/${chainHash}`,
    chainHash,
    publicKey,
    info,
    sign: (round) => signDrandRound(secretKey, round),
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
