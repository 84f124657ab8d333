import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  type ECDH,
  randomBytes,
  randomUUID,
  verify,
} from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PushPayload } from "@charity-steps/shared-types";

/** A browser as a push service knows it: its endpoint, and the keys pushes are encrypted to. */
export interface TestBrowser {
  id: string;
  endpoint: string;
  /** What `PushSubscription.toJSON()` gives, to post to the API. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

/** One push as the receiver took it: checked and decrypted. */
export interface ReceivedPush {
  browserId: string;
  payload: PushPayload;
  ttl: number;
  urgency: string | null;
  /** The VAPID JWT's claims, its signature checked against `k`. */
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
  at: number;
}

/**
 * A push service and the browsers behind it, in the test process: an HTTP server on 127.0.0.1 that
 * takes Web Push requests as FCM or Mozilla's would. Each request's VAPID JWT (RFC 8292) is checked
 * against the public key it names, and its body is decrypted (RFC 8291, aes128gcm, written out here
 * from the RFC rather than with the sender's library) with the browser's private key. A request that
 * fails a check is answered 400 and recorded in `rejected`. A browser can be told to answer with a
 * status instead (410: it unsubscribed; 500: the service is failing).
 */
export class PushReceiver {
  readonly received: ReceivedPush[] = [];
  readonly rejected: string[] = [];
  private readonly browsers = new Map<string, { ecdh: ECDH; auth: Buffer; status: number[] }>();
  private readonly waiters: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<PushReceiver> {
    let receiver: PushReceiver | undefined;
    const server = createServer((request, response) => {
      void receiver?.take(request).then(
        (status) => response.writeHead(status).end(),
        (error: unknown) => {
          receiver?.rejected.push(error instanceof Error ? error.message : String(error));
          response.writeHead(400).end();
          receiver?.notify();
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new PushReceiver(server, `http://127.0.0.1:${port}`);
    return receiver;
  }

  /** A new browser subscribed to this push service. */
  browser(): TestBrowser {
    const id = randomUUID();
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.browsers.set(id, { ecdh, auth, status: [] });
    const endpoint = `${this.origin}/push/${id}`;
    return {
      id,
      endpoint,
      subscription: {
        endpoint,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
      },
    };
  }

  /** The browser's next pushes are answered with these statuses, one each, then 201 again. */
  answerWith(browserId: string, ...statuses: number[]): void {
    this.browsers.get(browserId)?.status.push(...statuses);
  }

  pushesTo(browserId: string): ReceivedPush[] {
    return this.received.filter((push) => push.browserId === browserId);
  }

  /** Waits until `done()` holds, checking whenever a push arrives; fails after `timeoutMs`. */
  async waitFor(done: () => boolean, timeoutMs = 15_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!done()) {
      const left = until - Date.now();
      if (left <= 0) {
        throw new Error(
          `Pushes never arrived as expected: ${JSON.stringify(this.received.map((push) => push.payload.kind))}; rejected: ${JSON.stringify(this.rejected)}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private notify(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async take(request: IncomingMessage): Promise<number> {
    const match = /^\/push\/([0-9a-f-]{36})$/.exec(request.url ?? "");
    const browser = match ? this.browsers.get(match[1] as string) : undefined;
    if (request.method !== "POST" || !match || !browser) return 404;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const status = browser.status.shift();
    if (status !== undefined) {
      this.notify();
      return status;
    }
    const vapid = checkVapid(request, this.origin);
    if (request.headers["content-encoding"] !== "aes128gcm") {
      throw new Error(`Content-Encoding is ${request.headers["content-encoding"]}, not aes128gcm`);
    }
    const ttl = Number(request.headers.ttl);
    if (!Number.isInteger(ttl) || ttl < 0) throw new Error(`TTL is ${request.headers.ttl}`);
    const plaintext = decrypt(Buffer.concat(chunks), browser.ecdh, browser.auth);
    this.received.push({
      browserId: match[1] as string,
      payload: JSON.parse(plaintext.toString("utf8")) as PushPayload,
      ttl,
      urgency: (request.headers.urgency as string | undefined) ?? null,
      vapid,
      at: Date.now(),
    });
    this.notify();
    return 201;
  }
}

/** RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`, the JWT signed with ES256 by that key. */
function checkVapid(request: IncomingMessage, origin: string): ReceivedPush["vapid"] {
  const header = request.headers.authorization ?? "";
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
  if (!match) throw new Error(`Authorization is not VAPID: ${header}`);
  const [, token, key] = match as unknown as [string, string, string];
  const [head, body, signature] = token.split(".") as [string, string, string];
  const publicKey = Buffer.from(key, "base64url");
  if (publicKey.length !== 65 || publicKey[0] !== 4) throw new Error("k is not an uncompressed P-256 key");
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: publicKey.subarray(1, 33).toString("base64url"),
    y: publicKey.subarray(33, 65).toString("base64url"),
  };
  const valid = verify(
    "sha256",
    Buffer.from(`${head}.${body}`),
    { key: createPublicKey({ key: jwk, format: "jwk" }), dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!valid) throw new Error("the VAPID JWT's signature does not match k");
  const { alg } = JSON.parse(Buffer.from(head, "base64url").toString()) as { alg: string };
  if (alg !== "ES256") throw new Error(`the VAPID JWT is signed with ${alg}, not ES256`);
  const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as {
    aud: string;
    sub: string;
    exp: number;
  };
  if (claims.aud !== origin) throw new Error(`the VAPID JWT's aud is ${claims.aud}, not ${origin}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now - 60 && claims.exp <= now + 24 * 3600 + 60)) {
    throw new Error(`the VAPID JWT's exp (${claims.exp}) is not within 24 hours`);
  }
  return { ...claims, publicKey: key };
}

const hmac = (key: Buffer, ...data: Buffer[]) => {
  const mac = createHmac("sha256", key);
  for (const part of data) mac.update(part);
  return mac.digest();
};

/** RFC 8291 with RFC 8188's aes128gcm: one record, as a Web Push message is. */
function decrypt(body: Buffer, browser: ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] as number;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not the sender's 65-byte key`);
  if (record.length > recordSize) throw new Error("the message has more than one record");
  const shared = browser.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), browser.getPublicKey(), senderKey]);
  const ikm = hmac(hmac(authSecret, shared), keyInfo, Buffer.from([1]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0"), Buffer.from([1])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0"), Buffer.from([1])).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with a 2, then any zeros of padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("the record's padding delimiter is not 2 (not a last record)");
  return padded.subarray(0, end);
}
