import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import ipaddr from "ipaddr.js";
import { networkOf } from "../auth/provider/throttle.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The limits this server was built with (tests shorten them). */
    connectionLimits: ConnectionLimits;
  }
}

/** How long a connection may take over each part of its life before the server closes it. */
export interface ConnectionLimits {
  /** From the connection's first byte to a request's last header. */
  headersTimeoutMs: number;
  /** A whole request, headers and body: a photo upload on a slow phone connection fits. */
  requestTimeoutMs: number;
  /** Silence in either direction while a request is under way. */
  idleTimeoutMs: number;
  /** An idle kept-alive connection between requests: above the 60 s of common proxies and load balancers. */
  keepAliveTimeoutMs: number;
  /** How often Node looks for connections past the headers or request timeout. */
  checkIntervalMs: number;
  /** Connections open at once from one client network (trusted proxies excepted). */
  connectionsPerClient: number;
  /**
   * A streamed download the client has stopped taking: cut once nothing it was sent has been taken
   * for this long, so that a client which opens one and reads nothing (or a byte now and then)
   * cannot hold one of the few slots such downloads have.
   */
  stalledDownloadMs: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 120_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
  checkIntervalMs: 5_000,
  connectionsPerClient: 128,
  stalledDownloadMs: 15_000,
};

/**
 * Counts the open connections of each client network (an IPv4 address, or an IPv6 /64 as the
 * sign-in throttle counts it) and closes at once any connection past the cap, before a byte of it
 * is read. A trusted proxy is not capped: every client behind it reaches the API through it, and
 * it is the proxy that must cap them. With TRUST_PROXY=true every address is taken for a proxy, so
 * nothing is capped here: that setting means nothing but the proxy can reach the API.
 */
export function capConnectionsPerClient(
  app: FastifyInstance,
  trustProxy: boolean | string[],
  perClient: number,
): void {
  if (trustProxy === true) return;
  const isProxy = trustedProxyTest(trustProxy === false ? [] : trustProxy);
  const open = new Map<string, number>();
  app.server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || isProxy(address)) return;
    const network = networkOf(address);
    const count = (open.get(network) ?? 0) + 1;
    if (count > perClient) {
      app.log.warn({ network, open: perClient }, "connection refused: too many from one client");
      socket.destroy();
      return;
    }
    open.set(network, count);
    socket.once("close", () => {
      const left = (open.get(network) ?? 1) - 1;
      if (left > 0) open.set(network, left);
      else open.delete(network);
    });
  });
}

/** Whether an address is one of the trusted proxies' addresses or ranges (`10.0.0.0/8,127.0.0.1`). */
function trustedProxyTest(proxies: string[]): (address: string) => boolean {
  const ranges = proxies.map((entry): [ipaddr.IPv4 | ipaddr.IPv6, number] => {
    if (entry.includes("/")) return ipaddr.parseCIDR(entry);
    const single = ipaddr.process(entry);
    return [single, single.kind() === "ipv4" ? 32 : 128];
  });
  return (address) => {
    if (ranges.length === 0 || !ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address);
    return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  };
}

/** What a request Node's HTTP parser refused is told, by the parser's error code. */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: "The request took too long to arrive." },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: "The request's address and headers are too long: at most 16 KB together.",
  },
};
const UNREADABLE_REQUEST = { status: 400, message: "The request could not be read as HTTP." };

/**
 * Answers a request that never reached the app (Node's HTTP parser refused it: headers too large,
 * too slow, not HTTP at all) with the app's `{message}`, as Fastify's own handler does with its own
 * wording, and closes the connection.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const { status, message } = CLIENT_ERRORS[error.code ?? ""] ?? UNREADABLE_REQUEST;
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
