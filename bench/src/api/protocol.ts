import type { BuildOptions } from "@charity-steps/api";

/** What the bench asks a server child to prepare before it listens. */
export interface SeedPlan {
  /** Walkers w0000000… */
  walkers: number;
  /** The first this many walkers get an open session. */
  sessions: number;
  /** Day rows of history before the 30-day sync window (spread evenly over the walkers). */
  historyRows: number;
  /** Day rows for every walker for this many days ending today. */
  monthDays: number;
  /** A group of the first N walkers for each N. */
  groups: number[];
  /**
   * The sync ceiling's reference: the step ledger answers each reading at once, reading and writing
   * nothing (no transaction, no group to wait for), while everything around it (HTTP, session,
   * validation, the answer) runs as in production.
   */
  withoutLedger?: boolean;
  /**
   * Pieces of the API's speed machinery to switch off (`BuildOptions.speed`), to measure what each
   * one buys against the API with all of them (bench/README.md).
   */
  speed?: NonNullable<BuildOptions["speed"]>;
}

/**
 * What a server child tells the bench once it listens, its heap when asked (`{ kind: "heap" }`), and
 * that the work its requests left for later is done (`{ kind: "settle" }`).
 */
export type ServerMessage =
  | {
      kind: "listening";
      port: number;
      cookies: string[];
      /** Group id by member count. */
      groups: Record<number, number>;
      /** A public challenge's id by member count (the same first N walkers). */
      challenges: Record<number, string>;
    }
  | { kind: "heap"; heapUsedMb: number }
  | { kind: "settled" };
