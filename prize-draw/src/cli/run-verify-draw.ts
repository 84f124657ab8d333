/** The command's work, apart from the process it runs in (verify-draw.ts), so that tests can run it in theirs. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DRAW_MONTH_PATTERN, drawResultsPath, drawTicketsPath } from "@charity-steps/shared-types";
import { verifyDraw } from "../verify.js";

const USAGE =
  "usage: pnpm verify-draw <server> <YYYY-MM>\n       pnpm verify-draw --results FILE --tickets FILE";
const FETCH_TIMEOUT_MS = 30_000;

class UsageError extends Error {}

async function fetchText(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    throw new UsageError(`could not fetch ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const body = await response.text();
  if (!response.ok) throw new UsageError(`${url} answered ${response.status}: ${body.slice(0, 200)}`);
  return body;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${where} is not JSON`);
  }
}

function readText(cwd: string, file: string): string {
  try {
    return readFileSync(resolve(cwd, file), "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function load(
  args: string[],
  cwd: string,
  say: (line: string) => void,
): Promise<{ results: unknown; ticketsText: string }> {
  const options = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--results" || arg === "--tickets") {
      const value = args[++i];
      if (value === undefined) throw new UsageError(`${arg} needs a file`);
      options.set(arg, value);
    } else if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }

  if (options.size > 0) {
    const resultsFile = options.get("--results");
    const ticketsFile = options.get("--tickets");
    if (!resultsFile || !ticketsFile || positional.length > 0) {
      throw new UsageError("offline, give both --results FILE and --tickets FILE, and nothing else");
    }
    return {
      results: parseJson(readText(cwd, resultsFile), resultsFile),
      ticketsText: readText(cwd, ticketsFile),
    };
  }

  const [server, month] = positional;
  if (server === undefined || month === undefined || positional.length > 2)
    throw new UsageError("give a server and a month");
  if (!URL.canParse(server) || !/^https?:$/.test(new URL(server).protocol)) {
    throw new UsageError(`the server must be an http(s) address, got "${server}"`);
  }
  if (!new RegExp(DRAW_MONTH_PATTERN).test(month))
    throw new UsageError(`the month must be YYYY-MM, got "${month}"`);
  const base = server.replace(/\/+$/, "");
  const resultsUrl = `${base}${drawResultsPath(month)}`;
  say(`Fetching ${resultsUrl}`);
  const results = parseJson(await fetchText(resultsUrl), resultsUrl);
  const status = (results as { status?: unknown } | null)?.status;
  if (status !== "drawn") {
    throw new UsageError(
      `the draw for ${month} has not been run yet (status "${String(status)}"): nothing to check`,
    );
  }
  const ticketsUrl = `${base}${drawTicketsPath(month)}`;
  say(`Fetching ${ticketsUrl}`);
  return { results, ticketsText: await fetchText(ticketsUrl) };
}

/** Where the command reads relative files from, and where it writes. */
export interface VerifyDrawIo {
  cwd: string;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** `pnpm verify-draw` with `args`: its exit code (0 checks out, 1 does not, 2 nothing to check). */
export async function runVerifyDraw(args: string[], io: VerifyDrawIo): Promise<number> {
  let input: { results: unknown; ticketsText: string };
  try {
    input = await load(args, io.cwd, io.out);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`verify-draw: ${error.message}\n${USAGE}`);
    return 2;
  }
  const verification = await verifyDraw(input);
  for (const finding of verification.findings) io.out(`${finding.ok ? "ok  " : "FAIL"}  ${finding.message}`);
  io.out(verification.summary);
  return verification.ok ? 0 : 1;
}
