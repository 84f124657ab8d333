import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runVerifyDraw } from "../../src/cli/run-verify-draw.js";
import { publishedDraw } from "../fixtures.js";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const tsx = join(packageDir, "node_modules", ".bin", "tsx");

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command as a user runs it, in a process of its own: what its exit code and streams are. */
function verifyDrawProcess(args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      tsx,
      ["--conditions=source", "src/cli/verify-draw.ts", ...args],
      { cwd: packageDir, env: { ...process.env, INIT_CWD: packageDir } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * The same command's work run in this process: each start of a TypeScript process costs seconds,
 * so the cases beyond the two that show the process's wiring run here.
 */
async function verifyDrawCli(args: string[]): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runVerifyDraw(args, {
    cwd: packageDir,
    out: (line) => stdout.push(`${line}\n`),
    err: (line) => stderr.push(`${line}\n`),
  });
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

describe("pnpm verify-draw", () => {
  let dir: string;
  let server: Server;
  let base: string;
  const draw = publishedDraw({ redraws: [0] });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "verify-draw-"));
    server = createServer((request, response) => {
      if (request.url === "/api/draws/2026-10") {
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(draw.results));
      } else if (request.url === "/api/draws/2026-10/tickets") {
        response.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(draw.ticketsText);
      } else if (request.url === "/api/draws/2026-11") {
        const { seed: _seed, winners: _winners, ...open } = draw.results;
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ ...open, month: "2026-11", status: "open" }));
      } else {
        response.writeHead(404, { "content-type": "application/json" }).end('{"message":"Not found"}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("exits 0 for a true draw read from files, saying what it checked", async () => {
    const results = write("results.json", JSON.stringify(draw.results));
    const tickets = write("tickets.txt", draw.ticketsText);
    const { code, stdout } = await verifyDrawProcess(["--results", results, "--tickets", tickets]);
    expect(stdout).toContain("ok    SHA-256 of the revealed seed equals the commitment");
    expect(stdout.trim().split("\n").at(-1)).toBe("The draw for 2026-10 checks out: 40 tickets, 11 winners.");
    expect(code).toBe(0);
  });

  it("exits 1 with each mismatch for a tampered ticket list", async () => {
    const results = write("results.json", JSON.stringify(draw.results));
    const tickets = write("tampered.txt", draw.ticketsText.replace("t0001,h01\n", ""));
    const { code, stdout } = await verifyDrawCli(["--results", results, "--tickets", tickets]);
    expect(stdout).toContain("FAIL  The list holds 39 tickets, but the results say 40.");
    expect(stdout).toMatch(/The draw for 2026-10 does NOT check out: \d+ problems found\.\n$/);
    expect(code).toBe(1);
  });

  it("exits 2 for bad usage or files it cannot read", async () => {
    const bare = await verifyDrawProcess([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("usage: pnpm verify-draw <server> <YYYY-MM>");
    expect((await verifyDrawCli(["--results", "results.json"])).code).toBe(2);
    const missing = await verifyDrawCli([
      "--results",
      join(dir, "nope.json"),
      "--tickets",
      join(dir, "nope.txt"),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read");
    expect((await verifyDrawCli(["https://example.org", "2026-13"])).stderr).toContain(
      "the month must be YYYY-MM",
    );
  });

  it("fetches the results and the ticket list from a server", async () => {
    const { code, stdout } = await verifyDrawCli([`${base}/`, "2026-10"]);
    expect(stdout).toContain(`Fetching ${base}/api/draws/2026-10/tickets`);
    expect(stdout).toContain("The draw for 2026-10 checks out: 40 tickets, 11 winners.");
    expect(code).toBe(0);
  });

  it("exits 2 when the server has no such draw, the draw is not run yet, or cannot be reached", async () => {
    const missing = await verifyDrawCli([base, "2025-01"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("answered 404");
    const open = await verifyDrawCli([base, "2026-11"]);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain("the draw for 2026-11 has not been run yet");
    const unreachable = await verifyDrawCli(["http://127.0.0.1:9", "2026-10"]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain("could not fetch");
  });
});
