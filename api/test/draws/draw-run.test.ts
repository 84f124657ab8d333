import { verifyDraw } from "@charity-steps/prize-draw";
import {
  ACCOUNT_PATH,
  addMonths,
  type DayString,
  type DrawResults,
  drawClosesAt,
  drawMinePath,
  drawResultsPath,
  drawTicketsPath,
  formatMonth,
  isolated,
  MY_PRIZES_PATH,
  operatorDrawPath,
  operatorDrawRunPath,
  operatorDrawTiersPath,
  operatorPrizeRedrawPath,
  POSTAL_ENTRIES_PER_OPERATOR_PER_DAY,
  PRIZE_CLAIM_DAYS,
  prizeClaimPath,
} from "@charity-steps/shared-types";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import { buildTestApp, dialects, type TestApp, testConfig } from "../helper.js";
import { TEST_MONTH, useTestClock } from "../support/clock.js";
import { type DrandTestNetwork, startDrandTestNetwork } from "../support/drand-test-network.js";
import { OPERATOR_EMAIL, OPERATOR_ENV, walkerWithEmail } from "../support/operators.js";

const DAY_MS = 24 * 3_600_000;
// The app's clock (the routes') is this file's fixed today; the service's calls take their own moment.
useTestClock();
const thisMonth = TEST_MONTH;
/** Noon on the 10th of `month`: a moment inside it, long before its close. */
const inside = (month: string) => Date.parse(`${month}-10T12:00:00Z`);
const afterClose = (month: string) => drawClosesAt(month).getTime() + 60_000;
const day = (month: string, n: number): DayString => `${month}-${String(n).padStart(2, "0")}`;

/**
 * A walker's phone syncing `steps` for `month`, received at `now`: half for the 9th and half for the
 * 10th, so that at `inside(month)` neither day is late nor above fair play's ceiling for prizes.
 */
const stepsInMonth = async (
  app: FastifyInstance,
  userId: string,
  month: string,
  steps: number,
  now: number,
) => {
  const ninth = Math.ceil(steps / 2);
  for (const [n, daySteps] of [
    [9, ninth],
    [10, steps - ninth],
  ] as const) {
    await app.repositories.ledger.recordCount(
      {
        userId,
        day: day(month, n),
        counterId: "device:test",
        kind: "motion",
        source: "device_motion",
        steps: daySteps,
      },
      now,
    );
  }
};

describe.each(dialects)("running a month's draw (%s)", (dialect) => {
  let testApp: TestApp;
  let operator: { cookie: string; user: { id: string } };
  let counter = 0;
  /** Opens the month's draw as it would have been while the month ran (a closed month cannot be opened). */
  const open = (month: string) => testApp.app.services.draws.draw(month, inside(month));

  beforeAll(async () => {
    testApp = await buildTestApp(dialect, OPERATOR_ENV);
    operator = await walkerWithEmail(testApp.app, OPERATOR_EMAIL, true);
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** A walker with `steps` in `month`, stored while the month was open. */
  const walker = async (month: string, steps: number, confirmed = true) => {
    counter++;
    const w = await walkerWithEmail(testApp.app, `walker.${counter}.${dialect}@example.org`, confirmed);
    if (steps > 0) await record(w.user.id, month, steps, inside(month));
    return w;
  };
  const record = (userId: string, month: string, steps: number, now: number) =>
    stepsInMonth(testApp.app, userId, month, steps, now);
  /** A postal entry recorded while the month was open (the route takes only this month's and last). */
  const postal = (month: string, fullName: string, email: string | null, address = "1 Letterbox Lane") =>
    testApp.app.repositories.postalEntries.create(
      { month, fullName, address, email, receivedOn: day(month, 20) },
      operator.user.id,
      POSTAL_ENTRIES_PER_OPERATOR_PER_DAY,
      inside(month) + 10 * DAY_MS,
    );
  const tickets = (month: string) =>
    testApp.app.database.db.selectFrom("draw_tickets").selectAll().where("month", "=", month).execute();
  const get = (url: string, cookie?: string) =>
    testApp.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });
  const run = (month: string) =>
    testApp.app.inject({
      method: "POST",
      url: operatorDrawRunPath(month),
      headers: { cookie: operator.cookie },
    });
  const verify = async (month: string) => {
    const results = (await get(drawResultsPath(month))).json();
    const ticketsText = (await get(drawTicketsPath(month))).body;
    return verifyDraw({ results, ticketsText });
  };

  it("closes a month: one ticket per 10,000 steps for walkers with a confirmed email, one per postal entry", async () => {
    const month = addMonths(thisMonth, -2);
    await open(month);
    const ada = await walker(month, 25_000);
    const bea = await walker(month, 9_999);
    const cal = await walker(month, 50_000, false);
    await postal(month, "Ada Walker", ada.user.email);
    await postal(month, "Dot Post", null);
    await postal(month, "dot  post", null);

    expect(await testApp.app.services.draws.close(month, afterClose(month))).toBe(true);
    const rows = await tickets(month);
    const of = (userId: string) => rows.filter((row) => row.user_id === userId);
    expect(of(ada.user.id)).toHaveLength(2);
    expect(of(bea.user.id)).toHaveLength(0);
    expect(of(cal.user.id)).toHaveLength(0);
    const postalRows = rows.filter((row) => row.postal_entry_id !== null);
    expect(postalRows).toHaveLength(3);
    // Ada's postal entry gives her confirmed email: it is hers, so it shares her holder id.
    const adaHolder = of(ada.user.id)[0]?.holder_id;
    expect(postalRows.filter((row) => row.holder_id === adaHolder)).toHaveLength(1);
    // The two envelopes of "Dot Post" (same name, same address) are one person.
    expect(new Set(postalRows.map((row) => row.holder_id)).size).toBe(2);
    for (const row of rows) expect(row.ticket_id).toMatch(/^[A-Za-z0-9_-]{12}$/);

    const view = (await get(operatorDrawPath(month), operator.cookie)).json();
    expect(view.walkerTickets).toBe(2);
    expect(view.postalTickets).toBe(3);
    expect(view.tiersEditable).toBe(false);
    // Closing again counts nothing twice.
    expect(await testApp.app.repositories.draws.close(month, afterClose(month))).toBeNull();
    expect(await tickets(month)).toHaveLength(5);
  });

  it("counts the steps stored at the close: a late sync is stored and shown, but changes no ticket", async () => {
    const month = addMonths(thisMonth, -3);
    await open(month);
    const eve = await walker(month, 10_000);
    // Synced after the close (and before anyone closed the month): the sync closes it first.
    await record(eve.user.id, month, 35_000, afterClose(month));
    expect((await tickets(month)).filter((row) => row.user_id === eve.user.id)).toHaveLength(1);
    expect(await testApp.app.repositories.ledger.monthTotal(eve.user.id, month)).toBe(35_000);
  });

  it("refuses to run a month before its close, and tiers after it", async () => {
    const before = await run(thisMonth);
    expect(before.statusCode).toBe(409);
    expect(before.json().message).toMatch(/cannot be run before it closes/);
    // Next month, not opened yet: refused, and no seed committed for it by the asking.
    const later = addMonths(thisMonth, 1);
    expect(await testApp.app.repositories.draws.find(later)).toBeUndefined();
    expect((await run(later)).statusCode).toBe(409);
    expect(await testApp.app.repositories.draws.find(later)).toBeUndefined();
    // A prize id that could be no prize's (here a NUL, which PostgreSQL cannot even compare) is a 400.
    for (const id of ["%00abc", "a%20b", "x".repeat(65)]) {
      const claim = await testApp.app.inject({
        method: "POST",
        url: prizeClaimPath(id),
        headers: { cookie: operator.cookie },
        payload: { over18: true, publicName: "A", county: "B", deliveryAddress: "C" },
      });
      expect(claim.statusCode, id).toBe(400);
      const redraw = await testApp.app.inject({
        method: "POST",
        url: operatorPrizeRedrawPath(id),
        headers: { cookie: operator.cookie },
      });
      expect(redraw.statusCode, id).toBe(400);
    }
    const month = addMonths(thisMonth, -4);
    await open(month);
    await testApp.app.services.draws.close(month, afterClose(month));
    const tiers = await testApp.app.inject({
      method: "PUT",
      url: operatorDrawTiersPath(month),
      headers: { cookie: operator.cookie },
      payload: { tiers: [{ name: "Gold", prizes: 1, description: "A bike" }] },
    });
    expect(tiers.statusCode).toBe(409);
    expect(tiers.json().message).toBe("The tiers cannot be changed once the draw has closed.");
  });

  it("sets next month's tiers before the close: names must differ, and the audit log keeps before and after", async () => {
    const month = addMonths(thisMonth, 1);
    const put = (tiers: unknown) =>
      testApp.app.inject({
        method: "PUT",
        url: operatorDrawTiersPath(month),
        headers: { cookie: operator.cookie },
        payload: { tiers },
      });
    const twice = await put([
      { name: "Gold", prizes: 1, description: "A" },
      { name: " Gold ", prizes: 2, description: "B" },
    ]);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().message).toBe("Each tier needs its own name.");
    // Two names that differ only in case read as one on the public results.
    const cased = await put([
      { name: "Platinum", prizes: 1, description: "A" },
      { name: "platinum", prizes: 2, description: "B" },
    ]);
    expect(cased.statusCode).toBe(422);
    // A NUL in a name, or a bell in a description, would be published to everyone: refused.
    const nul = await put([{ name: "x\u0000y", prizes: 1, description: "A" }]);
    expect(nul.statusCode).toBe(400);
    expect(nul.json().message).toBe("tiers.0.name must not contain control characters.");
    const bell = await put([{ name: "Gold", prizes: 1, description: "Ring\u0007" }]);
    expect(bell.statusCode).toBe(400);
    expect(bell.json().message).toBe("tiers.0.description must not contain control characters.");
    const tiers = [
      { name: "Grand", prizes: 1, description: "A weekend in the Lakes" },
      { name: "Runner-up", prizes: 3, description: "Walking boots" },
    ];
    const saved = await put(tiers);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().results.tiers).toEqual(tiers);
    expect((await get(drawResultsPath(month))).json().tiers).toEqual(tiers);
    const log = await testApp.app.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "draw.tiers")
      .where("subject", "=", `draw:${month}`)
      .execute();
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]?.after_json ?? "null")).toEqual({ tiers });
  });

  it("runs a closed month once: the results verify, a second run answers 409 with the same results", async () => {
    const month = addMonths(thisMonth, -5);
    await open(month);
    const walkers = await Promise.all([30_000, 20_000, 10_000, 40_000].map((steps) => walker(month, steps)));
    await postal(month, "Pat Post", null);

    const first = await run(month);
    expect(first.statusCode).toBe(200);
    const results: DrawResults = first.json();
    expect(results.status).toBe("drawn");
    expect(results.ticketCount).toBe(11);
    expect(results.beacon).toBeNull();
    // Five holders, nine prizes by default: each person wins once, four prizes stay unfilled.
    expect(results.winners).toHaveLength(5);
    expect(new Set(results.winners?.map((winner) => winner.holder)).size).toBe(5);
    const verification = await verify(month);
    expect(verification.summary).toBe(`The draw for ${month} checks out: 11 tickets, 5 winners.`);
    expect(verification.ok).toBe(true);

    const again = await run(month);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already been run/);
    expect(again.json().results).toEqual(results);
    expect(
      await testApp.app.database.db
        .selectFrom("draw_prizes")
        .selectAll()
        .where("month", "=", month)
        .execute(),
    ).toHaveLength(5);

    // Each walker sees their own tickets, and winners are mailed. A walker's own draw is never
    // stored by a browser or a cache on the way.
    const mineResponse = await get(drawMinePath(month), walkers[0]?.cookie);
    expect(mineResponse.headers["cache-control"]).toBe("private, no-store");
    expect((await get(MY_PRIZES_PATH, walkers[0]?.cookie)).headers["cache-control"]).toBe(
      "private, no-store",
    );
    const mine = mineResponse.json();
    expect(mine.ticketCount).toBe(3);
    expect(mine.tickets).toEqual([...mine.tickets].sort());
    const mail = await testApp.app.database.db
      .selectFrom("mail_outbox")
      .select(["to", "subject"])
      .where(
        "to",
        "in",
        walkers.map((w) => w.user.email ?? ""),
      )
      .execute();
    expect(mail).toHaveLength(4);
    expect(mail[0]?.subject).toMatch(
      /^You won a \u2068(Platinum|Gold|Silver|Bronze)\u2069 prize in the Charity Steps draw for /,
    );
  });

  it("draws once when two processes run the same month at the same moment", async () => {
    const month = addMonths(thisMonth, -6);
    await open(month);
    for (const steps of [50_000, 30_000, 20_000]) await walker(month, steps);
    const second = await buildApp(testConfig({ DATABASE_URL: testApp.database.url, ...OPERATOR_ENV }), {
      logger: false,
      drawTickMs: null,
    });
    try {
      const now = afterClose(month);
      const outcomes = await Promise.all([
        testApp.app.services.draws.run(month, null, now),
        second.services.draws.run(month, null, now),
        testApp.app.services.draws.run(month, operator.user.id, now),
        second.services.draws.run(month, operator.user.id, now),
      ]);
      expect(outcomes.filter((outcome) => outcome.drawn)).toHaveLength(1);
      for (const outcome of outcomes) expect(outcome.results).toEqual(outcomes[0]?.results);
      expect(await tickets(month)).toHaveLength(10);
      const prizes = await testApp.app.database.db
        .selectFrom("draw_prizes")
        .selectAll()
        .where("month", "=", month)
        .execute();
      expect(prizes).toHaveLength(3);
    } finally {
      await second.close();
    }
  });

  it("lets a winner claim within 14 days; publishes the name and county; an unclaimed prize is redrawn after", async () => {
    const month = addMonths(thisMonth, -7);
    await open(month);
    // Set while the month was open (the route refuses: by the app's clock it has long closed).
    const tiers = [{ name: "Gold", prizes: 2, description: "A bike" }];
    expect(await testApp.app.repositories.draws.setTiers(month, tiers, operator.user.id, inside(month))).toBe(
      true,
    );
    const walkers = await Promise.all([10_000, 20_000, 30_000, 40_000].map((steps) => walker(month, steps)));
    const drawnAt = afterClose(month);
    const { results } = await testApp.app.services.draws.run(month, operator.user.id, drawnAt);
    expect(results.winners).toHaveLength(2);

    const prizesOf = async (cookie: string) => (await get(MY_PRIZES_PATH, cookie)).json().prizes;
    const holders = await Promise.all(walkers.map(async (w) => ({ w, prizes: await prizesOf(w.cookie) })));
    const winners = holders.filter((holder) => holder.prizes.length === 1);
    expect(winners).toHaveLength(2);
    const [claimer, sleeper] = winners as [(typeof winners)[0], (typeof winners)[0]];
    const loser = holders.find((holder) => holder.prizes.length === 0);
    const prize = claimer.prizes[0];
    expect(prize).toMatchObject({ month, tier: "Gold", description: "A bike", status: "expired" });

    // The app's clock is long past this old month's 14 days: claims go through the service's clock.
    const claim = {
      over18: true as const,
      publicName: "A. Walker",
      county: "Kent",
      deliveryAddress: "1 High St",
    };
    const inTime = drawnAt + (PRIZE_CLAIM_DAYS - 1) * DAY_MS;
    await expect(
      testApp.app.services.draws.claim(prize.id, loser?.w.user.id ?? "", claim, inTime),
    ).rejects.toThrow("There is no such prize.");
    // A name of marks that show nothing would publish a blank winner.
    await expect(
      testApp.app.services.draws.claim(
        prize.id,
        claimer.w.user.id,
        { ...claim, publicName: "\u200E\u00AD\u200B" },
        inTime,
      ),
    ).rejects.toThrow("The name to publish must not be blank.");
    const claimed = await testApp.app.services.draws.claim(
      prize.id,
      claimer.w.user.id,
      { ...claim, publicName: "\u200FA. Walker " },
      inTime,
    );
    expect(claimed).toMatchObject({ status: "claimed", publicName: "A. Walker", county: "Kent" });
    await expect(
      testApp.app.services.draws.claim(prize.id, claimer.w.user.id, claim, inTime),
    ).rejects.toThrow("You have already claimed this prize.");
    const late = drawnAt + (PRIZE_CLAIM_DAYS + 1) * DAY_MS;
    await expect(
      testApp.app.services.draws.claim(sleeper.prizes[0].id, sleeper.w.user.id, claim, late),
    ).rejects.toThrow(`The ${PRIZE_CLAIM_DAYS} days to claim this prize have passed.`);
    // Over HTTP (the app's clock), the same claim is refused with a 409 the walker can read.
    const refused = await testApp.app.inject({
      method: "POST",
      url: prizeClaimPath(sleeper.prizes[0].id),
      headers: { cookie: sleeper.w.cookie },
      payload: claim,
    });
    expect(refused.statusCode).toBe(409);

    const published = (await get(drawResultsPath(month))).json();
    const winner = published.winners.find((w: { ticket: string }) => w.ticket === prize.ticket);
    expect(winner).toMatchObject({ publicName: "A. Walker", county: "Kent" });
    expect(winner.unclaimed).toBeUndefined();
    // The prize left unclaimed past its days is published as such, not as still awaiting a claim.
    const unclaimed = published.winners.find(
      (w: { ticket: string }) => w.ticket === sleeper.prizes[0].ticket,
    );
    expect(unclaimed).toMatchObject({ unclaimed: true });
    expect(unclaimed.publicName).toBeUndefined();
    expect(JSON.stringify(published)).not.toContain("1 High St");

    // A claimed prize is never redrawn; an unclaimed one is, by the next pick of the sequence.
    const redrawClaimed = await testApp.app.inject({
      method: "POST",
      url: operatorPrizeRedrawPath(prize.id),
      headers: { cookie: operator.cookie },
    });
    expect(redrawClaimed.statusCode).toBe(409);
    await expect(
      testApp.app.services.draws.redraw(sleeper.prizes[0].id, operator.user.id, inTime),
    ).rejects.toThrow(/can be redrawn only after/);
    const redrawn = await testApp.app.inject({
      method: "POST",
      url: operatorPrizeRedrawPath(sleeper.prizes[0].id),
      headers: { cookie: operator.cookie },
    });
    expect(redrawn.statusCode).toBe(200);
    const { prize: replacement, results: after } = redrawn.json();
    expect(replacement).toMatchObject({
      tier: "Gold",
      status: "awaiting_claim",
      replaces: sleeper.prizes[0].pick ?? expect.any(Number),
    });
    expect(after.winners).toHaveLength(3);
    expect(after.winners[2].replaces).toBeDefined();
    // The new winner is someone who had not won: one prize per person per month.
    expect(new Set(after.winners.map((w: { holder: string }) => w.holder)).size).toBe(3);
    expect((await verify(month)).ok).toBe(true);
    const again = await testApp.app.inject({
      method: "POST",
      url: operatorPrizeRedrawPath(sleeper.prizes[0].id),
      headers: { cookie: operator.cookie },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This prize has already been redrawn.");
    const log = await testApp.app.database.db
      .selectFrom("audit_log")
      .select("action")
      .where("subject", "=", `prize:${sleeper.prizes[0].id}`)
      .execute();
    expect(log.map((row) => row.action)).toEqual(["prize.redraw"]);

    // The winner's data export holds their tickets and the claim; erasing the account keeps the
    // prize in the published winners (the draw still verifies) but drops the name, county and address.
    const exported = await testApp.app.services.draws.exportOf(claimer.w.user.id);
    expect(exported).toEqual([
      {
        month,
        tickets: expect.arrayContaining([prize.ticket]),
        prizes: [
          expect.objectContaining({
            status: "claimed",
            publicName: "A. Walker",
            deliveryAddress: "1 High St",
          }),
        ],
      },
    ]);
    const erased = await testApp.app.inject({
      method: "DELETE",
      url: ACCOUNT_PATH,
      headers: { cookie: claimer.w.cookie },
      payload: { confirmEmail: claimer.w.user.email },
    });
    expect(erased.statusCode, erased.body).toBe(204);
    const afterErasure = (await get(drawResultsPath(month))).json();
    expect(afterErasure.winners.find((w: { ticket: string }) => w.ticket === prize.ticket)).toMatchObject({
      publicName: null,
      county: null,
    });
    expect((await verify(month)).ok).toBe(true);
    const stored = await testApp.app.repositories.draws.findPrize(prize.id);
    expect(stored).toMatchObject({ status: "claimed", delivery_address: null, public_name: null });
  });

  it("lets an operator record a postal winner's claim (in time, once, logged), and only a postal winner's", async () => {
    const month = addMonths(thisMonth, -9);
    await open(month);
    const walkerWinner = await walker(month, 10_000);
    await postal(month, "Pam Post", null);
    const drawnAt = afterClose(month);
    await testApp.app.services.draws.run(month, operator.user.id, drawnAt);
    const view = await testApp.app.services.draws.operatorView(month, drawnAt + DAY_MS);
    const postalPrize = view.prizes.find((prize) => prize.winner.kind === "postal");
    const walkerPrize = view.prizes.find((prize) => prize.winner.kind === "walker");
    expect(postalPrize).toMatchObject({
      canRecordClaim: true,
      winner: { name: "Pam Post", address: "1 Letterbox Lane" },
    });
    expect(walkerPrize?.canRecordClaim).toBe(false);
    const claim = {
      over18: true as const,
      publicName: "P. Post",
      county: "Devon",
      deliveryAddress: "1 Letterbox Lane",
    };
    const inTime = drawnAt + 2 * DAY_MS;

    const recorded = await testApp.app.services.draws.recordPostalClaim(
      postalPrize?.id ?? "",
      operator.user.id,
      claim,
      inTime,
    );
    expect(recorded).toMatchObject({
      status: "claimed",
      publicName: "P. Post",
      county: "Devon",
      canRecordClaim: false,
    });
    await expect(
      testApp.app.services.draws.recordPostalClaim(postalPrize?.id ?? "", operator.user.id, claim, inTime),
    ).rejects.toThrow("You have already claimed this prize.");
    await expect(
      testApp.app.services.draws.recordPostalClaim(walkerPrize?.id ?? "", operator.user.id, claim, inTime),
    ).rejects.toThrow("only a postal winner's claim is recorded here");
    // The walker claims their own in the app; nobody else's claim route finds the postal prize.
    const stranger = await testApp.app.inject({
      method: "POST",
      url: prizeClaimPath(postalPrize?.id ?? ""),
      headers: { cookie: walkerWinner.cookie },
      payload: claim,
    });
    expect(stranger.statusCode).toBe(404);
    const log = await testApp.app.database.db
      .selectFrom("audit_log")
      .select(["action", "operator_user_id"])
      .where("subject", "=", `prize:${postalPrize?.id}`)
      .execute();
    expect(log).toEqual([{ action: "prize.postal_claim", operator_user_id: operator.user.id }]);
    const published = (await get(drawResultsPath(month))).json();
    expect(published.winners.find((w: { ticket: string }) => w.ticket === postalPrize?.ticket)).toMatchObject(
      {
        publicName: "P. Post",
        county: "Devon",
      },
    );
    expect((await verify(month)).ok).toBe(true);
  });

  it("tells the winner of a tier an operator named with the article its name is read with", async () => {
    const month = addMonths(thisMonth, -10);
    await open(month);
    // Operators write the prizes' descriptions, in any script: the mail sets each apart so that one
    // written right to left does not take the English sentence around it with it.
    const tiers = [{ name: "Eco", prizes: 1, description: "قارورة ماء من الخيزران" }];
    expect(await testApp.app.repositories.draws.setTiers(month, tiers, operator.user.id, inside(month))).toBe(
      true,
    );
    const winner = await walker(month, 10_000);
    await testApp.app.services.draws.run(month, operator.user.id, afterClose(month));

    const monthName = formatMonth(month);
    const notice = await testApp.app.database.db
      .selectFrom("notifications")
      .select(["title", "body"])
      .where("user_id", "=", winner.user.id)
      .where("kind", "=", "prize_won")
      .executeTakeFirstOrThrow();
    expect(notice.title).toBe("You won a prize!");
    expect(notice.body).toMatch(
      new RegExp(`^Your ticket won an ${isolated("Eco")} prize in the draw for ${monthName}\\. Claim it by `),
    );
    const mail = await testApp.app.database.db
      .selectFrom("mail_outbox")
      .select(["subject", "text"])
      .where("to", "=", winner.user.email ?? "")
      .execute();
    expect(mail.map((message) => message.subject)).toEqual([
      `You won an ${isolated("Eco")} prize in the Charity Steps draw for ${monthName}`,
    ]);
    expect(mail[0]?.text).toContain(
      `won an ${isolated("Eco")} prize in the draw for ${monthName}: ${isolated("قارورة ماء من الخيزران")}`,
    );
  });

  it("keeps the ticket list and the winners' mail private until the draw, and refuses a claim by someone else", async () => {
    const month = addMonths(thisMonth, -8);
    await open(month);
    const fay = await walker(month, 10_000);
    await testApp.app.services.draws.close(month, afterClose(month));
    expect((await get(drawTicketsPath(month))).statusCode).toBe(404);
    const closed = (await get(drawResultsPath(month))).json();
    expect(closed.status).toBe("closed");
    expect(closed.seed).toBeUndefined();
    const mine = (await get(drawMinePath(month), fay.cookie)).json();
    expect(mine).toMatchObject({ status: "closed", ticketCount: 1, prizes: [] });
  });
});

describe.each(dialects)("a draw with a drand beacon (%s)", (dialect) => {
  const month = addMonths(thisMonth, -2);
  const closesAt = drawClosesAt(month).getTime();
  // Rounds every 3 seconds from a day before the close; the network's clock is set by each test.
  let networkNow = closesAt;
  let network: DrandTestNetwork;
  let testApp: TestApp;

  beforeAll(async () => {
    network = await startDrandTestNetwork({
      genesisTime: Math.floor((closesAt - DAY_MS) / 1000),
      period: 3,
      now: () => networkNow,
    });
    testApp = await buildTestApp(dialect, {
      DRAW_BEACON_URL: network.url,
      DRAW_BEACON_CHAIN_HASH: network.chainHash,
      DRAW_BEACON_PUBLIC_KEY: network.publicKey,
    });
    await testApp.app.services.draws.draw(month, inside(month));
    for (const steps of [20_000, 30_000]) {
      const w = await walkerWithEmail(testApp.app, `beacon.${steps}.${dialect}@example.org`, true);
      await stepsInMonth(testApp.app, w.user.id, month, steps, inside(month));
    }
  });
  afterAll(async () => {
    await testApp.close();
    await network.close();
  });

  it("waits for the first round after the close: until it is published nothing is drawn (503)", async () => {
    networkNow = closesAt;
    await expect(testApp.app.services.draws.run(month, null, closesAt + 1000)).rejects.toThrow(
      "The drand beacon round after the close could not be fetched and checked yet.",
    );
    const row = await testApp.app.repositories.draws.find(month);
    expect(row?.status).toBe("closed");
  });

  it("mixes in that round once it is out, and anyone can check it", async () => {
    networkNow = closesAt + 60_000;
    const { drawn, results } = await testApp.app.services.draws.run(month, null, networkNow);
    expect(drawn).toBe(true);
    // Round r is published at genesis + (r - 1) × period: the first after the close is this one.
    const round = Math.floor((closesAt / 1000 - network.info.genesis_time) / 3) + 2;
    expect(results.beacon).toEqual({ ...network.sign(round), chainHash: network.chainHash });
    const ticketsText = (await testApp.app.inject({ method: "GET", url: drawTicketsPath(month) })).body;
    const verification = await verifyDraw({ results, ticketsText });
    expect(verification.ok).toBe(true);
    // This test network's key is not one the verifier holds: it says so rather than vouching for it.
    expect(verification.findings.map((finding) => finding.message).join("\n")).toContain(
      "its signature is NOT checked",
    );
  });
});

describe.each(dialects)("the draws' scheduled job (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect, { DRAW_AUTO_RUN: "false" });
  });
  afterAll(async () => {
    await testApp.close();
  });
  const status = async (month: string) => (await testApp.app.repositories.draws.find(month))?.status;

  it("publishes this and next month's commitments, closes a month at its close, and leaves the run to operators when told to", async () => {
    const month = addMonths(thisMonth, -1);
    const w = await walkerWithEmail(testApp.app, `tick.${dialect}@example.org`, true);
    await stepsInMonth(testApp.app, w.user.id, month, 20_000, inside(month));
    // A minute before the close: the month's row exists (the sync made it open) and stays open.
    await testApp.app.services.draws.tick(drawClosesAt(month).getTime() - 60_000);
    expect(await status(month)).toBe("open");
    expect(await status(addMonths(month, 1))).toBe("open");
    expect(await status(addMonths(month, 2))).toBe("open");
    await testApp.app.services.draws.tick(afterClose(month));
    expect(await status(month)).toBe("closed");
    expect(
      await testApp.app.database.db
        .selectFrom("draw_tickets")
        .selectAll()
        .where("month", "=", month)
        .execute(),
    ).toHaveLength(2);
    // DRAW_AUTO_RUN=false: still closed, not drawn, a minute later.
    await testApp.app.services.draws.tick(afterClose(month) + 60_000);
    expect(await status(month)).toBe("closed");
  });

  it("runs closed months itself by default, once, and mails the winners", async () => {
    const auto = await buildTestApp(dialect);
    try {
      const month = addMonths(thisMonth, -2);
      await auto.app.services.draws.draw(month, inside(month));
      const w = await walkerWithEmail(auto.app, `auto.${dialect}@example.org`, true);
      await stepsInMonth(auto.app, w.user.id, month, 20_000, inside(month));
      await Promise.all([
        auto.app.services.draws.tick(afterClose(month)),
        auto.app.services.draws.tick(afterClose(month)),
      ]);
      const results = await auto.app.services.draws.results(month);
      expect(results.status).toBe("drawn");
      expect(results.winners).toHaveLength(1);
      const mail = await auto.app.database.db
        .selectFrom("mail_outbox")
        .selectAll()
        .where("to", "=", w.user.email ?? "")
        .execute();
      expect(mail).toHaveLength(1);
      const log = await auto.app.database.db
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "draw.run")
        .execute();
      expect(log).toHaveLength(1);
      expect(log[0]?.operator_user_id).toBeNull();

      // In the app too: the win, and the results for every ticket holder; each once.
      const told = async () =>
        (
          await auto.app.database.db
            .selectFrom("notifications")
            .select(["kind", "title", "url", "event_key"])
            .where("user_id", "=", w.user.id)
            .orderBy("created_at")
            .orderBy("kind")
            .execute()
        ).map(({ kind, title }) => `${kind}: ${title}`);
      const monthName = formatMonth(month);
      const { id: prizeId } = await auto.app.database.db
        .selectFrom("draw_prizes")
        .select("id")
        .where("user_id", "=", w.user.id)
        .executeTakeFirstOrThrow();
      // Both told in the same tick, often in the same millisecond: in no set order between them.
      expect((await told()).sort()).toEqual([
        `draw_results: The ${monthName} draw's results are out`,
        "prize_won: You won a prize!",
      ]);
      // Reminded on the 7th and the 12th day while the prize waits, once each.
      for (const [days, expected] of [
        [6, 2],
        [7, 3],
        [8, 3],
        [12, 4],
        [13, 4],
      ] as const) {
        await auto.app.services.draws.tick(afterClose(month) + days * DAY_MS + 60_000);
        expect((await told()).length, `day ${days}`).toBe(expected);
      }
      expect((await told()).slice(2)).toEqual([
        "prize_claim_reminder: Your prize is waiting to be claimed",
        "prize_claim_reminder: Your prize is waiting to be claimed",
      ]);
      const reminders = await auto.app.database.db
        .selectFrom("notifications")
        .select(["event_key", "url"])
        .where("kind", "=", "prize_claim_reminder")
        .orderBy("event_key")
        .execute();
      expect(reminders).toEqual([
        { event_key: `${prizeId}:12`, url: `/prizes/${prizeId}/claim` },
        { event_key: `${prizeId}:7`, url: `/prizes/${prizeId}/claim` },
      ]);
    } finally {
      await auto.close();
    }
  });
});
