import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type LocalAppServer, spawnAppServer } from "./app-server.js";

/**
 * The e2e run's app servers, started from one place: the run's global setup, which outlives the
 * test files. Every file still gets a server of its own (a fresh data folder: walkers, sign-up
 * counts, draws and photos seen are the file's alone); what the files share is the waiting.
 *
 * - The first server is started with `pnpm start`'s script, which builds whatever is stale; the
 *   others run the built API directly, as that script does once the build is fresh.
 * - A server with no settings of its own is started before it is asked for: while one file runs,
 *   the next file's server starts.
 * - Each server's mail server runs here too; a test reads its mail through the pool.
 *
 * Test files reach the pool over HTTP on 127.0.0.1 (they run in other processes), through
 * `startAppServer` in app-server.ts.
 */
export interface AppServerPool {
  url: string;
  close(): Promise<void>;
}

export async function startAppServerPool(): Promise<AppServerPool> {
  const running = new Map<string, LocalAppServer>();
  const settled = (starting: Promise<unknown>) =>
    starting.then(
      () => undefined,
      () => undefined,
    );
  // The first server builds what is stale; until it is up, no other may run the build.
  const first = spawnAppServer("start");
  const built = settled(first);
  // The next server with no settings of its own. A failure to start is reported to whoever asks
  // for it, not as an unhandled rejection meanwhile.
  let spare: Promise<LocalAppServer> | null = first;
  first.catch(() => undefined);
  let closing = false;

  async function take(env: Record<string, string>): Promise<LocalAppServer> {
    await built;
    if (Object.keys(env).length > 0) return spawnAppServer("api", { env });
    const ready = spare ?? spawnAppServer("api");
    // One server starts at a time: the next one once this one is up.
    const next = settled(ready).then(() => spawnAppServer("api"));
    next.catch(() => undefined);
    spare = next;
    return ready;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const [, resource, id, detail] = (request.url ?? "").split("/");
    if (resource !== "servers") return void response.writeHead(404).end();
    if (request.method === "POST" && !id) {
      let body = "";
      for await (const chunk of request) body += chunk;
      const { env } = JSON.parse(body) as { env: Record<string, string> };
      const server = await take(env);
      const serverId = randomUUID();
      running.set(serverId, server);
      response.writeHead(200, { "Content-Type": "application/json" });
      const { origin, dataDir, operatorEmail } = server;
      return void response.end(JSON.stringify({ id: serverId, origin, dataDir, operatorEmail }));
    }
    const server = id ? running.get(id) : undefined;
    if (!server || !id) return void response.writeHead(404).end();
    if (request.method === "GET" && detail === "mail") {
      response.writeHead(200, { "Content-Type": "application/json" });
      return void response.end(JSON.stringify(server.received()));
    }
    if (request.method === "GET" && detail === "output") {
      return void response.writeHead(200, { "Content-Type": "text/plain" }).end(await server.output());
    }
    if (request.method === "DELETE" && !detail) {
      running.delete(id);
      await server.stop();
      return void response.writeHead(204).end();
    }
    response.writeHead(405).end();
  }

  const http = createServer((request, response) => {
    if (closing) return void response.writeHead(503).end("The e2e run is over.");
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { "Content-Type": "text/plain" });
      response.end(error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      closing = true;
      await new Promise<void>((resolve) => http.close(() => resolve()));
      const left = [...running.values()];
      running.clear();
      const unused = spare;
      spare = null;
      await Promise.all([
        ...left.map((server) => server.stop()),
        unused?.then((server) => server.stop()).catch(() => undefined),
      ]);
    },
  };
}
