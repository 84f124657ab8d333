import { randomBytes } from "node:crypto";
import {
  newDrawSeed,
  seedCommitment,
  type Ticket,
  ticketListSha256,
  type Winner,
} from "@charity-steps/prize-draw";
import {
  DEFAULT_DRAW_TIERS,
  type DrawBeacon,
  type DrawSummary,
  type DrawTier,
  PRIZE_CLAIM_DAYS,
  prizeEntries,
  STEPS_PER_PRIZE_ENTRY,
} from "@charity-steps/shared-types";
import type { Kysely, Selectable, Updateable } from "kysely";
import { sql } from "kysely";
import type { Database } from "../db/database.js";
import type { DrawPrizesTable, DrawsTable } from "../db/schema/draws.js";
import type { DatabaseSchema } from "../db/schema/index.js";
import type { EligibleSteps } from "../ledger/eligible-steps.js";
import type { AuditLogRepository } from "./audit-log.js";
import { nameKey } from "./postal-entries.js";

export type DrawRow = Selectable<DrawsTable>;
export type PrizeRow = Selectable<DrawPrizesTable>;

/** A prize row with what operators see of its winner. */
export interface PrizeWithWinner extends PrizeRow {
  winner_first_name: string | null;
  winner_last_name: string | null;
  winner_email: string | null;
  postal_name: string | null;
  postal_email: string | null;
  postal_address: string | null;
}

/** A month's draw as the public may see it before the draw: never the seed. */
export interface DrawCommitment {
  month: string;
  commitment: string;
  status: string;
}

/** How long a winner has to claim, from the moment they were drawn. */
export const PRIZE_CLAIM_MS = PRIZE_CLAIM_DAYS * 24 * 3_600_000;

/** Rows inserted per statement when the close writes a month's tickets. */
const TICKET_INSERT_BATCH = 500;

export const DRAW_AUDIT_ACTIONS = {
  tiers: "draw.tiers",
  run: "draw.run",
  redraw: "prize.redraw",
  postalClaim: "prize.postal_claim",
} as const;

/**
 * A public id: 12 characters of base64url (72 random bits), so that nothing about a ticket or a
 * holder (a name, an account, the order tickets were made in) can be read from it.
 */
export const randomPublicId = (): string => randomBytes(9).toString("base64url");

export const drawTiers = (row: Pick<DrawRow, "tiers_json">): DrawTier[] =>
  row.tiers_json === null
    ? DEFAULT_DRAW_TIERS.map((tier) => ({ ...tier }))
    : (JSON.parse(row.tiers_json) as DrawTier[]);

export const drawBeacon = (row: Pick<DrawRow, "beacon_json">): DrawBeacon | null =>
  row.beacon_json === null ? null : (JSON.parse(row.beacon_json) as DrawBeacon);

/** What the close counted, for its caller's log. */
export interface CloseOutcome {
  walkerTickets: number;
  postalTickets: number;
}

/** The draw's outcome, ready to be stored. */
export interface DrawRecord {
  beacon: DrawBeacon | null;
  winners: Winner[];
  picksUsed: number;
  /** The operator who ran it; null for the scheduled run. */
  operatorId: string | null;
}

/** A redraw's outcome, ready to be stored. */
export interface RedrawRecord {
  prize: PrizeRow;
  /** The picks used before this redraw: the store refuses it if another redraw moved on since. */
  picksBefore: number;
  picksAfter: number;
  winner: { ticket: string; holder: string; pick: number } | null;
  operatorId: string;
}

/**
 * The months' prize draws: each month's secret seed and its commitment, its tiers, the tickets
 * counted at its close, and its prizes. Each change of state is one guarded update (`where status
 * = …`) in a transaction, so that two processes doing the same thing at once do it once: the
 * second finds the state already moved on and writes nothing.
 */
export class DrawsRepository {
  constructor(
    private readonly database: Database,
    private readonly auditLog: AuditLogRepository,
    private readonly eligibleSteps: EligibleSteps,
  ) {}

  private get db() {
    return this.database.db;
  }

  /**
   * The commitment of `month`'s draw, making the month's seed on first ask. Two processes asking at
   * once each make a seed, but only the first insert lands and both then read that one row back:
   * a month only ever has one seed, so the commitment never changes once published.
   */
  async commitmentFor(month: string, now = Date.now()): Promise<DrawCommitment> {
    const row = await this.ensure(month, now);
    return { month: row.month, commitment: row.commitment, status: row.status };
  }

  /** The month's draw row, made (with its seed) on first ask. */
  async ensure(month: string, now = Date.now()): Promise<DrawRow> {
    const existing = await this.find(month);
    if (existing) return existing;
    const seed = newDrawSeed();
    await this.db
      .insertInto("draws")
      .values({ month, seed, commitment: seedCommitment(seed), status: "open", created_at: now })
      .onConflict((conflict) => conflict.column("month").doNothing())
      .execute();
    const created = await this.find(month);
    if (!created) throw new Error(`The draw for ${month} was not stored`);
    return created;
  }

  /** The months that have a draw, from `from` on, newest first. */
  async list(from: string): Promise<DrawSummary[]> {
    const rows = await this.db
      .selectFrom("draws")
      .select(["month", "status"])
      .where("month", ">=", from)
      .orderBy("month", "desc")
      .execute();
    return rows.map((row) => ({ month: row.month, status: row.status as DrawSummary["status"] }));
  }

  find(month: string): Promise<DrawRow | undefined> {
    return this.db.selectFrom("draws").selectAll().where("month", "=", month).executeTakeFirst();
  }

  /** Months whose draw is still in `status`, oldest first. */
  async monthsIn(status: "open" | "closed"): Promise<string[]> {
    const rows = await this.db
      .selectFrom("draws")
      .select("month")
      .where("status", "=", status)
      .orderBy("month")
      .execute();
    return rows.map((row) => row.month);
  }

  /** Sets the month's tiers while it is open; false (nothing written) once it has closed. */
  async setTiers(month: string, tiers: DrawTier[], operatorId: string, now = Date.now()): Promise<boolean> {
    return this.database.transaction(async (trx) => {
      const before = await guardedUpdate(trx, month, "open", { tiers_json: JSON.stringify(tiers) });
      if (!before) return false;
      await this.auditLog.append(trx, {
        operatorUserId: operatorId,
        action: DRAW_AUDIT_ACTIONS.tiers,
        subject: `draw:${month}`,
        before: { tiers: drawTiers(before) },
        after: { tiers },
        at: now,
      });
      return true;
    });
  }

  /**
   * Closes the month: counts its tickets from the steps stored now and the postal entries
   * recorded, and fixes the list's hash. Null when the month was already closed (by this process
   * or another), or has no draw: the tickets are counted once.
   *
   * Each walker with a confirmed email gets one ticket per 10,000 of the month's steps; each
   * postal entry is one ticket. One person holds one holder id: a walker's tickets share theirs,
   * and a postal entry joins the walker whose confirmed email it gives, or earlier postal entries
   * with the same email or the same name and address. Prizes are one per holder.
   */
  async close(month: string, now = Date.now()): Promise<CloseOutcome | null> {
    return this.database.transaction(async (trx) => {
      if (!(await guardedUpdate(trx, month, "open", { status: "closed", closed_at: now }))) return null;

      const rows: DatabaseSchema["draw_tickets"][] = [];
      const walkerHolders = new Map<string, string>();
      for (const walker of await this.monthStepsForDraw(trx, month)) {
        const holder = randomPublicId();
        walkerHolders.set(walker.userId, holder);
        for (let i = 0; i < prizeEntries(walker.steps); i++) {
          rows.push({
            month,
            ticket_id: randomPublicId(),
            holder_id: holder,
            user_id: walker.userId,
            postal_entry_id: null,
          });
        }
      }
      const walkerTickets = rows.length;

      const entries = await trx
        .selectFrom("postal_entries")
        .select(["id", "name_key", "address", "email_key"])
        .where("month", "=", month)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      const emails = [...new Set(entries.flatMap((entry) => (entry.email_key ? [entry.email_key] : [])))];
      const walkersByEmail = new Map<string, string>();
      for (let i = 0; i < emails.length; i += TICKET_INSERT_BATCH) {
        const found = await trx
          .selectFrom("users")
          .select(["id", "email"])
          .where((eb) => eb(eb.fn("lower", ["email"]), "in", emails.slice(i, i + TICKET_INSERT_BATCH)))
          .where("email_verified_at", "is not", null)
          .execute();
        for (const user of found) if (user.email) walkersByEmail.set(user.email.toLowerCase(), user.id);
      }
      const postalHolders = new Map<string, string>();
      for (const entry of entries) {
        const keys = [`n:${entry.name_key}|${nameKey(entry.address)}`];
        if (entry.email_key) keys.push(`e:${entry.email_key}`);
        const walker = entry.email_key ? walkersByEmail.get(entry.email_key) : undefined;
        let holder = walker === undefined ? undefined : walkerHolders.get(walker);
        if (walker !== undefined && holder === undefined) {
          holder = randomPublicId();
          walkerHolders.set(walker, holder);
        }
        holder ??= keys.map((key) => postalHolders.get(key)).find((found) => found !== undefined);
        holder ??= randomPublicId();
        for (const key of keys) postalHolders.set(key, holder);
        rows.push({
          month,
          ticket_id: randomPublicId(),
          holder_id: holder,
          user_id: null,
          postal_entry_id: entry.id,
        });
      }

      for (let i = 0; i < rows.length; i += TICKET_INSERT_BATCH) {
        await trx
          .insertInto("draw_tickets")
          .values(rows.slice(i, i + TICKET_INSERT_BATCH))
          .execute();
      }
      const tickets = rows.map((row) => ({ id: row.ticket_id, holder: row.holder_id }));
      await trx
        .updateTable("draws")
        .set({ ticket_count: tickets.length, ticket_list_sha256: ticketListSha256(tickets) })
        .where("month", "=", month)
        .execute();
      return { walkerTickets, postalTickets: rows.length - walkerTickets };
    });
  }

  /**
   * Each walker's steps for the month as the draw counts them: their eligible steps (a manual entry
   * or a fast count waiting for a check, or rejected, counts for no ticket), for walkers with a
   * confirmed email and at least one ticket's worth. The one place the draw reads steps from.
   */
  private async monthStepsForDraw(
    trx: Kysely<DatabaseSchema>,
    month: string,
  ): Promise<{ userId: string; steps: number }[]> {
    // Every walker's month: its held days are planned for their dates (`Database.planEachRun`).
    const months = [...(await this.eligibleSteps.months(month, undefined, trx)).values()].filter(
      (walker) => walker.eligibleSteps >= STEPS_PER_PRIZE_ENTRY,
    );
    const confirmed = new Set<string>();
    for (let i = 0; i < months.length; i += TICKET_INSERT_BATCH) {
      const rows = await trx
        .selectFrom("users")
        .select("id")
        .where(
          "id",
          "in",
          months.slice(i, i + TICKET_INSERT_BATCH).map((walker) => walker.userId),
        )
        .where("email_verified_at", "is not", null)
        .execute();
      for (const row of rows) confirmed.add(row.id);
    }
    return months
      .filter((walker) => confirmed.has(walker.userId))
      .map((walker) => ({ userId: walker.userId, steps: walker.eligibleSteps }))
      .sort((a, b) => (a.userId < b.userId ? -1 : 1));
  }

  /** The month's tickets, in no particular order (callers put them in canonical order). */
  async tickets(month: string): Promise<Ticket[]> {
    const rows = await this.db
      .selectFrom("draw_tickets")
      .select(["ticket_id", "holder_id"])
      .where("month", "=", month)
      .execute();
    return rows.map((row) => ({ id: row.ticket_id, holder: row.holder_id }));
  }

  /** How many of the month's tickets are walkers' and postal entries'. */
  async ticketKinds(month: string): Promise<{ walker: number; postal: number }> {
    const rows = await this.db
      .selectFrom("draw_tickets")
      .select((eb) => [eb.fn.countAll().as("all"), eb.fn.count("postal_entry_id").as("postal")])
      .where("month", "=", month)
      .executeTakeFirstOrThrow();
    const postal = Number(rows.postal);
    return { walker: Number(rows.all) - postal, postal };
  }

  /** The walker's ticket ids for the month in canonical order (at most `limit`), and how many in all. */
  async ticketsOf(userId: string, month: string, limit: number): Promise<{ ids: string[]; count: number }> {
    const rows = await this.db
      .selectFrom("draw_tickets")
      .select("ticket_id")
      .where("user_id", "=", userId)
      .where("month", "=", month)
      .execute();
    const ids = rows.map((row) => row.ticket_id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return { ids: ids.slice(0, limit), count: ids.length };
  }

  /** The months the walker holds tickets in, newest first. */
  async ticketMonthsOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom("draw_tickets")
      .select("month")
      .distinct()
      .where("user_id", "=", userId)
      .orderBy("month", "desc")
      .execute();
    return rows.map((row) => row.month);
  }

  /**
   * Stores the draw's outcome and its prizes; false (nothing written) when the month is not
   * closed-and-undrawn, e.g. another process has just drawn it.
   */
  async recordDraw(month: string, draw: DrawRecord, now = Date.now()): Promise<boolean> {
    return this.database.transaction(async (trx) => {
      const row = await guardedUpdate(trx, month, "closed", {
        status: "drawn",
        drawn_at: now,
        beacon_json: draw.beacon === null ? null : JSON.stringify(draw.beacon),
        picks_used: draw.picksUsed,
        drawn_by: draw.operatorId,
      });
      if (!row) return false;

      const descriptions = new Map(drawTiers(row).map((tier) => [tier.name, tier.description]));
      const owners = await ticketOwners(
        trx,
        month,
        draw.winners.map((winner) => winner.ticket),
      );
      const prizes = draw.winners.map((winner, position) =>
        newPrize({
          month,
          position,
          tier: winner.tier,
          description: descriptions.get(winner.tier) ?? "",
          win: winner,
          replaces: null,
          owner: owners.get(winner.ticket),
          now,
        }),
      );
      for (let i = 0; i < prizes.length; i += TICKET_INSERT_BATCH) {
        await trx
          .insertInto("draw_prizes")
          .values(prizes.slice(i, i + TICKET_INSERT_BATCH))
          .execute();
      }
      // The scheduled run is logged too, with no operator: the log then holds every draw.
      await this.auditLog.append(trx, {
        operatorUserId: draw.operatorId,
        action: DRAW_AUDIT_ACTIONS.run,
        subject: `draw:${month}`,
        before: { status: "closed" },
        after: { status: "drawn", winners: prizes.length, picksUsed: draw.picksUsed },
        at: now,
      });
      return true;
    });
  }

  /** The month's prizes in published order, with their winners' names for operators. */
  async prizes(month: string): Promise<PrizeWithWinner[]> {
    return this.db
      .selectFrom("draw_prizes")
      .leftJoin("users", "users.id", "draw_prizes.user_id")
      .leftJoin("postal_entries", "postal_entries.id", "draw_prizes.postal_entry_id")
      .selectAll("draw_prizes")
      .select([
        "users.first_name as winner_first_name",
        "users.last_name as winner_last_name",
        "users.email as winner_email",
        "postal_entries.full_name as postal_name",
        "postal_entries.email as postal_email",
        "postal_entries.address as postal_address",
      ])
      .where("draw_prizes.month", "=", month)
      .orderBy("draw_prizes.position")
      .execute();
  }

  findPrize(id: string): Promise<PrizeRow | undefined> {
    return this.db.selectFrom("draw_prizes").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** The walker's prizes, newest month first (for one month when given). */
  prizesOf(userId: string, month?: string): Promise<PrizeRow[]> {
    let query = this.db
      .selectFrom("draw_prizes")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("month", "desc")
      .orderBy("position");
    if (month !== undefined) query = query.where("month", "=", month);
    return query.limit(100).execute();
  }

  /** Prizes whose winner has not been told yet, oldest first. */
  unnotifiedPrizes(limit: number): Promise<PrizeRow[]> {
    return this.db
      .selectFrom("draw_prizes")
      .selectAll()
      .where("notified_at", "is", null)
      .where("status", "=", "awaiting_claim")
      .orderBy("drawn_at")
      .limit(limit)
      .execute();
  }

  /** Drawn months whose ticket holders have not been told the results are out. */
  async monthsWithResultsUntold(): Promise<string[]> {
    const rows = await this.db
      .selectFrom("draws")
      .select("month")
      .where("status", "=", "drawn")
      .where("results_told_at", "is", null)
      .orderBy("month")
      .execute();
    return rows.map((row) => row.month);
  }

  /**
   * Takes the telling of the month's results for this process: false when another has. The walkers
   * who held tickets that month, once each, come with it.
   */
  async claimResultsNotice(month: string, now = Date.now()): Promise<string[] | null> {
    const updated = await this.db
      .updateTable("draws")
      .set({ results_told_at: now })
      .where("month", "=", month)
      .where("status", "=", "drawn")
      .where("results_told_at", "is", null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return null;
    const rows = await this.db
      .selectFrom("draw_tickets")
      .select("user_id")
      .distinct()
      .where("month", "=", month)
      .where("user_id", "is not", null)
      .execute();
    return rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id]));
  }

  /**
   * Walkers' prizes still to claim, drawn at or before `before`, whose winner has not had the
   * reminder named `${prize id}:${day}` yet: each tick reads only the reminders still to send.
   */
  async prizesToRemind(before: number, day: number, now = Date.now()): Promise<PrizeRow[]> {
    return this.db
      .selectFrom("draw_prizes")
      .selectAll()
      .where("status", "=", "awaiting_claim")
      .where("user_id", "is not", null)
      .where("claim_by", ">", now)
      .where("drawn_at", "<=", before)
      .where(({ not, exists, selectFrom, ref }) =>
        not(
          exists(
            selectFrom("notifications")
              .select("notifications.id")
              .whereRef("notifications.user_id", "=", "draw_prizes.user_id")
              .where("notifications.kind", "=", "prize_claim_reminder")
              .where("notifications.event_key", "=", sql<string>`${ref("draw_prizes.id")} || ${`:${day}`}`),
          ),
        ),
      )
      .orderBy("drawn_at")
      .execute();
  }

  /** Marks the prize's winner as told; false when another process already has. */
  async markNotified(id: string, now = Date.now()): Promise<boolean> {
    const updated = await this.db
      .updateTable("draw_prizes")
      .set({ notified_at: now })
      .where("id", "=", id)
      .where("notified_at", "is", null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  /**
   * Records a claim; false (nothing written) unless the prize is unclaimed and in time, and is the
   * walker's (`by: { userId }`) or a postal winner's recorded by an operator (`by: { operatorId }`,
   * written to the audit log in the same transaction).
   */
  async claim(
    id: string,
    by: { userId: string } | { operatorId: string },
    claim: { publicName: string; county: string; deliveryAddress: string },
    now = Date.now(),
  ): Promise<boolean> {
    return this.database.transaction(async (trx) => {
      let query = trx
        .updateTable("draw_prizes")
        .set({
          status: "claimed",
          claimed_at: now,
          public_name: claim.publicName,
          county: claim.county,
          delivery_address: claim.deliveryAddress,
        })
        .where("id", "=", id)
        .where("status", "=", "awaiting_claim")
        .where("claim_by", ">=", now);
      query =
        "userId" in by
          ? query.where("user_id", "=", by.userId)
          : query.where("postal_entry_id", "is not", null);
      const updated = await query.executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      if ("operatorId" in by) {
        await this.auditLog.append(trx, {
          operatorUserId: by.operatorId,
          action: DRAW_AUDIT_ACTIONS.postalClaim,
          subject: `prize:${id}`,
          before: { status: "awaiting_claim" },
          after: { status: "claimed", publicName: claim.publicName, county: claim.county },
          at: now,
        });
      }
      return true;
    });
  }

  /** Every holder who has won in the month, redrawn prizes' included. */
  async winningHolders(month: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom("draw_prizes")
      .select("holder_id")
      .where("month", "=", month)
      .orderBy("position")
      .execute();
    return rows.map((row) => row.holder_id);
  }

  /**
   * Gives an unclaimed prize to the next pick; the new prize's id, `""` when every holder had
   * already won (the old prize is marked redrawn and none is added), or null when nothing was
   * written because the prize or the draw moved on meanwhile (claimed, redrawn, another redraw).
   */
  async recordRedraw(redraw: RedrawRecord, now = Date.now()): Promise<string | null> {
    const { prize } = redraw;
    return this.database
      .transaction(async (trx) => {
        const moved = await trx
          .updateTable("draws")
          .set({ picks_used: redraw.picksAfter })
          .where("month", "=", prize.month)
          .where("status", "=", "drawn")
          .where("picks_used", "=", redraw.picksBefore)
          .executeTakeFirst();
        const marked = await trx
          .updateTable("draw_prizes")
          .set({ status: "redrawn" })
          .where("id", "=", prize.id)
          .where("status", "=", "awaiting_claim")
          .where("claim_by", "<", now)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0 || Number(marked.numUpdatedRows) === 0) {
          // Undo whichever of the two did land: the redraw happens whole or not at all.
          throw new RedrawRaced();
        }
        let newId = "";
        if (redraw.winner !== null) {
          const last = await trx
            .selectFrom("draw_prizes")
            .select((eb) => eb.fn.max("position").as("position"))
            .where("month", "=", prize.month)
            .executeTakeFirstOrThrow();
          const owner = (await ticketOwners(trx, prize.month, [redraw.winner.ticket])).get(
            redraw.winner.ticket,
          );
          const added = newPrize({
            month: prize.month,
            position: Number(last.position) + 1,
            tier: prize.tier,
            description: prize.description,
            win: redraw.winner,
            replaces: prize.pick,
            owner,
            now,
          });
          newId = added.id;
          await trx.insertInto("draw_prizes").values(added).execute();
        }
        await this.auditLog.append(trx, {
          operatorUserId: redraw.operatorId,
          action: DRAW_AUDIT_ACTIONS.redraw,
          subject: `prize:${prize.id}`,
          before: {
            status: "awaiting_claim",
            ticket: prize.ticket_id,
            pick: prize.pick,
            claimBy: prize.claim_by,
          },
          after:
            redraw.winner === null
              ? { status: "redrawn", newPrize: null, reason: "every holder has already won" }
              : {
                  status: "redrawn",
                  newPrize: newId,
                  ticket: redraw.winner.ticket,
                  pick: redraw.winner.pick,
                },
          at: now,
        });
        return newId;
      })
      .catch((error: unknown) => {
        if (error instanceof RedrawRaced) return null;
        throw error;
      });
  }
}

/** A prize just drawn (or redrawn): awaiting its winner's claim for the days to claim from `now`. */
function newPrize(p: {
  month: string;
  position: number;
  tier: string;
  description: string;
  win: { ticket: string; holder: string; pick: number };
  replaces: number | null;
  owner: { user_id: string | null; postal_entry_id: string | null } | undefined;
  now: number;
}): PrizeRow {
  return {
    id: randomPublicId(),
    month: p.month,
    position: p.position,
    tier: p.tier,
    description: p.description,
    pick: p.win.pick,
    replaces_pick: p.replaces,
    ticket_id: p.win.ticket,
    holder_id: p.win.holder,
    user_id: p.owner?.user_id ?? null,
    postal_entry_id: p.owner?.postal_entry_id ?? null,
    status: "awaiting_claim",
    drawn_at: p.now,
    claim_by: p.now + PRIZE_CLAIM_MS,
    notified_at: null,
    claimed_at: null,
    public_name: null,
    county: null,
    delivery_address: null,
  };
}

/**
 * In `trx`, writes `set` to the month's row if its status is `from`, and answers the row's tiers as
 * they were; null (nothing written) when the status was not `from`. The update's own condition is
 * what makes it happen once: on PostgreSQL a second transaction waits for the first's row lock and
 * then finds the status moved on; SQLite has one writer.
 */
async function guardedUpdate(
  trx: Kysely<DatabaseSchema>,
  month: string,
  from: "open" | "closed",
  set: Updateable<DrawsTable>,
): Promise<Pick<DrawRow, "tiers_json"> | null> {
  const before = await trx
    .selectFrom("draws")
    .select("tiers_json")
    .where("month", "=", month)
    .where("status", "=", from)
    .executeTakeFirst();
  if (!before) return null;
  const updated = await trx
    .updateTable("draws")
    .set(set)
    .where("month", "=", month)
    .where("status", "=", from)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 0 ? null : before;
}

/** Thrown inside a redraw's transaction to undo it when another change got there first. */
class RedrawRaced extends Error {}

async function ticketOwners(
  trx: Kysely<DatabaseSchema>,
  month: string,
  ticketIds: string[],
): Promise<Map<string, { user_id: string | null; postal_entry_id: string | null }>> {
  const owners = new Map<string, { user_id: string | null; postal_entry_id: string | null }>();
  for (let i = 0; i < ticketIds.length; i += TICKET_INSERT_BATCH) {
    const rows = await trx
      .selectFrom("draw_tickets")
      .select(["ticket_id", "user_id", "postal_entry_id"])
      .where("month", "=", month)
      .where("ticket_id", "in", ticketIds.slice(i, i + TICKET_INSERT_BATCH))
      .execute();
    for (const row of rows) owners.set(row.ticket_id, row);
  }
  return owners;
}
