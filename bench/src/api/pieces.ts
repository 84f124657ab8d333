/**
 * What each piece of the API's speed machinery buys: the API with every piece beside the API with
 * one switched off (`BuildOptions.speed`), on fresh databases of the same walkers, taking turns at
 * the route whose work the piece spares. Each piece is judged on its own figure: the sync's
 * throughput for those that spare work on every sync, the p99 for the checkpoint thread, which takes
 * stalls off the request thread (beside a million day rows: a checkpoint of a database that size
 * writes pages all over its file, where an empty ledger's touches a few), and the badges read's
 * throughput for the statement cache, which spares SQLite preparing, and PostgreSQL parsing and
 * planning, the queries Kysely builds afresh for each request (the sync's own work is prepared once
 * by the ledger's writer, or planned once inside PostgreSQL's ledger functions). A piece that no
 * longer buys 15% there is not worth its code.
 */
import type { BuildOptions } from "@charity-steps/api";
import { type BenchContext, type Figure, type FigureGroup, notMeasured, relative } from "../figure.js";
import { findPostgres } from "./databases.js";
import { alternating, badgesSide, describeErrors, type LoadResult, syncSide } from "./load.js";
import type { SeedPlan } from "./protocol.js";
import { withApp } from "./server-process.js";

type Piece = keyof NonNullable<BuildOptions["speed"]>;

interface PieceCase {
  piece: Piece;
  title: string;
  dialects: ("sqlite" | "postgres")[];
  /** The piece's own figure: more requests a second, or a lower p99. */
  figure: "throughput" | "p99";
  /** The route it is measured on: a step sync, or a read of a walker's badges. */
  route: "sync" | "badges";
  /** Day rows already in the ledger (none unless given). */
  historyRows?: number;
}

const PIECES: PieceCase[] = [
  {
    piece: "groupCommit",
    title: "group commit",
    dialects: ["sqlite", "postgres"],
    figure: "throughput",
    route: "sync",
  },
  {
    piece: "statementCache",
    title: "statement cache",
    dialects: ["sqlite", "postgres"],
    figure: "throughput",
    route: "badges",
  },
  {
    piece: "sessionBatches",
    title: "batched session look-ups",
    dialects: ["sqlite", "postgres"],
    figure: "throughput",
    route: "sync",
  },
  {
    piece: "walCheckpointer",
    title: "WAL checkpoint thread",
    dialects: ["sqlite"],
    figure: "p99",
    route: "sync",
    historyRows: 1_000_000,
  },
];

/** The bar a piece must clear on its own figure. */
const GAIN_MIN = 0.15;

export const measureSpeedPieces: FigureGroup = async (context: BenchContext) => {
  const run = context.quick
    ? { seconds: 1, warmup: 0, rounds: 1, walkers: 100 }
    : { seconds: 12, warmup: 3, walkers: 1000 };
  const plan: SeedPlan = {
    walkers: run.walkers,
    sessions: run.walkers,
    historyRows: 0,
    monthDays: 0,
    groups: [],
  };
  const postgres = await findPostgres(context.root);
  const log = (text: string) => process.stdout.write(`  ${text}\n`);
  const figures: Figure[] = [];
  try {
    // --quick keeps the harness working with one case; the full run measures every piece.
    const cases = context.quick ? PIECES.slice(0, 1) : PIECES;
    for (const { piece, title, dialects, figure, route, historyRows = 0 } of cases) {
      for (const dialect of context.quick ? dialects.slice(0, 1) : dialects) {
        const label = dialect === "sqlite" ? "SQLite" : "PostgreSQL";
        const measured = route === "sync" ? "sync" : "badges read";
        const name = `${title}: ${measured} ${figure === "p99" ? "p99" : "throughput"} with / without (${label})`;
        const budget = figure === "p99" ? `≥ ${GAIN_MIN * 100}% lower` : `≥ +${GAIN_MIN * 100}%`;
        if (dialect === "postgres" && postgres.url === null) {
          figures.push(notMeasured(name, figure === "p99" ? "ms" : "req/s", budget, postgres.why));
          continue;
        }
        const seeded = { ...plan, historyRows };
        const [withPiece, without] = await withApp(context.root, dialect, postgres.url, seeded, (all) =>
          withApp(context.root, dialect, postgres.url, { ...seeded, speed: { [piece]: false } }, (less) =>
            alternating(
              [side(route, all, `${label} with ${title}`), side(route, less, `${label} without ${title}`)],
              run,
            ),
          ),
        );
        if (!withPiece || !without) throw new Error(`no run for ${title} on ${label}`);
        const ledger = historyRows > 0 ? `${historyRows.toLocaleString("en-GB")} day rows; ` : "";
        log(`${title} (${label}): ${ledger}${describe(withPiece)} with, ${describe(without)} without`);
        const note = `${ledger}taking turns, 3 rounds each; with ${describe(withPiece)}${describeErrors(withPiece)}, without ${describe(without)}${describeErrors(without)}`;
        figures.push(
          figure === "p99"
            ? relative(
                {
                  name,
                  value: withPiece.p99,
                  unit: "ms",
                  reference: { name: "without", value: without.p99, unit: "ms" },
                  maxRatio: 1 - GAIN_MIN,
                  budget,
                  note,
                },
                context.quick,
              )
            : relative(
                {
                  name,
                  value: Math.round(withPiece.rps),
                  unit: "req/s",
                  reference: { name: "without", value: Math.round(without.rps), unit: "req/s" },
                  minRatio: 1 + GAIN_MIN,
                  budget,
                  note,
                },
                context.quick,
              ),
        );
      }
    }
  } finally {
    await postgres.close();
  }
  return figures;
};

const side = (route: PieceCase["route"], ...rest: Parameters<typeof syncSide>) =>
  route === "sync" ? syncSide(...rest) : badgesSide(...rest);

const describe = (result: LoadResult) => `${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms`;
