import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * A port nothing listens on. It is picked below the kernel's range of ephemeral ports, which its
 * outgoing connections take their local ports from: a port picked in that range can be taken by
 * one of the run's many connections (Chromium's, a server's to its mail server) before the server
 * meant for it binds it.
 */
export async function freePort(): Promise<number> {
  const below = lowestEphemeralPort() - LOWEST;
  for (let attempt = 0; attempt < 50 && below > 1_000; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * below);
    if (await canListen(port)) return port;
  }
  // No room below the ephemeral range (or all of it taken): the kernel's own pick.
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/** Ports below this are left alone: the well-known and commonly registered ones. */
const LOWEST = 10_000;

function lowestEphemeralPort(): number {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
  } catch {
    // Not Linux: the start of the range IANA suggests, which macOS and Windows use.
    return 49_152;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "0.0.0.0", () => server.close(() => resolve(true)));
  });
}
