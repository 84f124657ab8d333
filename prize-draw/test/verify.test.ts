import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/sha256.js";
import { parseTicketList, serializeTickets } from "../src/tickets.js";
import { verifyDraw } from "../src/verify.js";
import { makeTickets, publishedDraw } from "./fixtures.js";

const problems = (verification: Awaited<ReturnType<typeof verifyDraw>>) =>
  verification.findings.filter((finding) => !finding.ok).map((finding) => finding.message);

describe("verifying a published draw", () => {
  it("a true draw checks out, with and without a beacon, with redraws", async () => {
    for (const draw of [
      publishedDraw(),
      publishedDraw({ beacon: null }),
      publishedDraw({ redraws: [4, 0] }),
    ]) {
      const verification = await verifyDraw(draw);
      expect(problems(verification)).toEqual([]);
      expect(verification.ok).toBe(true);
      expect(verification.summary).toBe(
        `The draw for 2026-10 checks out: 40 tickets, ${draw.results.winners?.length} winners.`,
      );
    }
    const messages = (await verifyDraw(publishedDraw())).findings.map((finding) => finding.message);
    expect(messages).toContain("The list is in canonical order (by ticket id) with no ticket twice.");
    expect(messages).toContain(
      "The drand round 5928395's signature is drand quicknet's own (checked against its public key).",
    );
    expect((await verifyDraw(publishedDraw({ beacon: null }))).findings.map((f) => f.message)).toContain(
      "No drand beacon was used: the seed alone decided.",
    );
  });

  it("catches a seed that is not the one committed to", async () => {
    const draw = publishedDraw();
    const seed = `${"f".repeat(63)}0`;
    const verification = await verifyDraw({ ...draw, results: { ...draw.results, seed } });
    expect(verification.ok).toBe(false);
    expect(problems(verification)[0]).toMatch(
      /SHA-256 of the revealed seed is [0-9a-f]{64}, not the published commitment/,
    );
    expect(verification.summary).toMatch(/^The draw for 2026-10 does NOT check out: \d+ problems found\.$/);
  });

  it("catches a seed swapped along with its commitment, through the winners", async () => {
    const draw = publishedDraw();
    const seed = `${"f".repeat(63)}0`;
    const commitment = sha256Hex(Buffer.from(seed, "hex"));
    const found = problems(await verifyDraw({ ...draw, results: { ...draw.results, seed, commitment } }));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((message) => /prize \d+: the results name ticket/.test(message))).toBe(true);
  });

  it("catches a ticket removed from the list", async () => {
    const draw = publishedDraw();
    const lines = draw.ticketsText.split("\n");
    lines.splice(5, 1);
    const found = problems(await verifyDraw({ ...draw, ticketsText: lines.join("\n") }));
    expect(found).toContain("The list holds 39 tickets, but the results say 40.");
    expect(found.some((message) => message.startsWith("SHA-256 of the ticket list is"))).toBe(true);
  });

  it("catches a ticket added to the list", async () => {
    const draw = publishedDraw();
    const ticketsText = serializeTickets([
      ...parseTicketList(draw.ticketsText),
      { id: "t9999", holder: "h99" },
    ]);
    const found = problems(await verifyDraw({ ...draw, ticketsText }));
    expect(found).toContain("The list holds 41 tickets, but the results say 40.");
    expect(found.some((message) => message.includes("not the published ticketListSha256"))).toBe(true);
  });

  it("catches tickets out of canonical order", async () => {
    const draw = publishedDraw();
    const lines = draw.ticketsText.split("\n");
    [lines[2], lines[3]] = [lines[3] ?? "", lines[2] ?? ""];
    const found = problems(await verifyDraw({ ...draw, ticketsText: lines.join("\n") }));
    expect(found).toContain(
      "Ticket t0002 on line 4 comes after t0003: the list is not in canonical order (by id).",
    );
    expect(found.some((message) => message.includes("not the published ticketListSha256"))).toBe(true);
  });

  it("catches a ticket listed twice", async () => {
    const draw = publishedDraw();
    const ticketsText = `${draw.ticketsText}t0039,h14\n`;
    const found = problems(await verifyDraw({ ...draw, ticketsText }));
    expect(found).toContain("Ticket t0039 appears more than once (again on line 41).");
    expect(found).toContain("With a ticket listed twice, the winners cannot be recomputed.");
  });

  it("catches a winner altered, added or removed", async () => {
    const draw = publishedDraw();
    const winners = draw.results.winners ?? [];
    const altered = winners.map((winner, i) =>
      i === 1 ? { ...winner, ticket: "t0000", holder: "h00" } : winner,
    );
    expect(problems(await verifyDraw({ ...draw, results: { ...draw.results, winners: altered } }))).toEqual([
      "Gold prize 1: the results name ticket t0000 (pick 2) of holder h00, but the draw gives ticket t0008 (pick 2) of holder h08.",
    ]);
    expect(
      problems(await verifyDraw({ ...draw, results: { ...draw.results, winners: winners.slice(1) } })),
    ).toEqual(["Platinum prize 1: the draw gives ticket t0013 (pick 0), but the results name no winner."]);
    const moved = winners.map((winner, i) => (i === 0 ? { ...winner, tier: "Gold" } : winner));
    // Platinum now lacks its winner and every Gold prize is off by one place.
    expect(problems(await verifyDraw({ ...draw, results: { ...draw.results, winners: moved } }))).toEqual([
      "Platinum prize 1: the draw gives ticket t0013 (pick 0), but the results name no winner.",
      "Gold prize 1: the results name ticket t0013 (pick 0) of holder h13, but the draw gives ticket t0008 (pick 2) of holder h08.",
      "Gold prize 2: the results name ticket t0008 (pick 2) of holder h08, but the draw gives ticket t0035 (pick 4) of holder h10.",
      "Gold prize 3: the results name ticket t0035 (pick 4), but the draw gives no such prize.",
    ]);
  });

  it("catches a redraw that is not the next pick, or that replaces no winner", async () => {
    const draw = publishedDraw({ redraws: [5] });
    const winners = draw.results.winners ?? [];
    const last = winners.at(-1);
    if (!last) throw new Error("no redraw");
    expect(last.replaces).toBe(5);
    const wrong = [...winners.slice(0, -1), { ...last, ticket: "t0000", holder: "h00" }];
    expect(problems(await verifyDraw({ ...draw, results: { ...draw.results, winners: wrong } }))[0]).toMatch(
      /^The Silver redraw replacing pick 5: the results name ticket t0000/,
    );
    const orphan = [...winners.slice(0, -1), { ...last, replaces: 99 }];
    expect(problems(await verifyDraw({ ...draw, results: { ...draw.results, winners: orphan } }))).toEqual([
      `The redraw ticket ${last.ticket} (pick ${last.pick}) replaces pick 99, which is no earlier winner.`,
    ]);
  });

  it("catches a beacon whose randomness is not SHA-256 of its signature", async () => {
    const draw = publishedDraw();
    const beacon = draw.results.beacon;
    if (!beacon) throw new Error("no beacon");
    const forged = { ...beacon, signature: `${beacon.signature.slice(0, -2)}00` };
    expect(problems(await verifyDraw({ ...draw, results: { ...draw.results, beacon: forged } }))).toEqual([
      "The drand round 5928395's randomness is not SHA-256 of its signature: the beacon is not genuine.",
      "The drand round 5928395's signature is not drand quicknet's signature of round 5928395: the beacon is not genuine.",
    ]);
  });

  it("catches a genuine drand round passed off as another round", async () => {
    const draw = publishedDraw();
    const beacon = draw.results.beacon;
    if (!beacon) throw new Error("no beacon");
    const moved = { ...beacon, round: beacon.round + 1 };
    expect(problems(await verifyDraw({ ...draw, results: { ...draw.results, beacon: moved } }))).toEqual([
      "The drand round 5928396's signature is not drand quicknet's signature of round 5928396: the beacon is not genuine.",
      `The draw used round 5928396, but the network's first round after the close (${draw.results.closesAt}) is 5928395: the round was not the one the rules fix.`,
    ]);
  });

  it("catches a genuine round that is not the first after the close (a round chosen after the fact)", async () => {
    const draw = publishedDraw();
    // The same round, but the close put three rounds earlier: the rules fix an earlier round.
    const closesAt = new Date(Date.parse(draw.results.closesAt) - 9_000).toISOString();
    expect(problems(await verifyDraw({ ...draw, results: { ...draw.results, closesAt } }))).toEqual([
      `The draw used round 5928395, but the network's first round after the close (${closesAt}) is 5928392: the round was not the one the rules fix.`,
    ]);
  });

  it("says so when the beacon's drand network is one whose key it does not hold", async () => {
    const draw = publishedDraw();
    const beacon = draw.results.beacon;
    if (!beacon) throw new Error("no beacon");
    const elsewhere = { ...beacon, chainHash: "ab".repeat(32) };
    const verification = await verifyDraw({ ...draw, results: { ...draw.results, beacon: elsewhere } });
    expect(verification.ok).toBe(true);
    expect(verification.findings.map((finding) => finding.message)).toContain(
      `The beacon names drand network ${"ab".repeat(32)}, whose key this verifier does not hold: its signature is NOT checked (check round 5928395 on that network yourself).`,
    );
  });

  it("says a document in the wrong shape, or a draw not yet run, cannot be checked", async () => {
    const draw = publishedDraw();
    expect(problems(await verifyDraw({ ...draw, results: { ...draw.results, seed: "xyz" } }))[0]).toMatch(
      /^The results document is not in the published shape: \/seed must match pattern/,
    );
    expect((await verifyDraw({ results: null, ticketsText: "" })).ok).toBe(false);
    const { seed: _seed, winners: _winners, ...open } = draw.results;
    expect(problems(await verifyDraw({ ...draw, results: { ...open, status: "open" } }))).toEqual([
      'The draw for 2026-10 has not been run yet (status "open"): there is nothing to check.',
    ]);
  });

  it("says a draw whose tiers cannot be drawn cannot be recomputed", async () => {
    const draw = publishedDraw();
    const tiers = [...draw.results.tiers, { name: "Gold", prizes: 1, description: "Again" }];
    expect(problems(await verifyDraw({ ...draw, results: { ...draw.results, tiers } }))).toEqual([
      "The draw cannot be recomputed: tier Gold appears more than once.",
    ]);
  });

  it("checks a draw with fewer holders than prizes", async () => {
    const draw = publishedDraw({ tickets: makeTickets(9, 3), beacon: null });
    const verification = await verifyDraw(draw);
    expect(problems(verification)).toEqual([]);
    expect(verification.findings.map((finding) => finding.message).join("\n")).toContain(
      "7 prizes left unfilled, every holder having won.",
    );
  });
});
