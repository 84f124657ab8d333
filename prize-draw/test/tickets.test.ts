import { describe, expect, it } from "vitest";
import {
  canonicalTickets,
  parseTicketList,
  serializeTickets,
  TicketListError,
  ticketListSha256,
} from "../src/tickets.js";

describe("the canonical ticket list", () => {
  const tickets = [
    { id: "c3", holder: "h9" },
    { id: "a1", holder: "h7" },
    { id: "b2", holder: "h7" },
  ];

  it("is one `id,holder\\n` line per ticket, sorted by id, and its SHA-256 is over those bytes", () => {
    expect(serializeTickets(tickets)).toBe("a1,h7\nb2,h7\nc3,h9\n");
    // The same as `printf 'a1,h7\nb2,h7\nc3,h9\n' | sha256sum`.
    expect(ticketListSha256(tickets)).toBe(
      "a545a42d65688f45a25455ebaf02901df14ec43d8b6a956dc4f74915437517da",
    );
    expect(serializeTickets([])).toBe("");
    expect(ticketListSha256([])).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("sorts by bytes: upper case before lower, digits before letters, '-' before '_'", () => {
    const ids = ["b", "B", "a", "_x", "-x", "9", "A0", "a0"];
    expect(canonicalTickets(ids.map((id) => ({ id, holder: "h" }))).map((ticket) => ticket.id)).toEqual([
      "-x",
      "9",
      "A0",
      "B",
      "_x",
      "a",
      "a0",
      "b",
    ]);
  });

  it("refuses an id twice, and ids or holders outside the safe characters or too long", () => {
    expect(() => canonicalTickets([...tickets, { id: "a1", holder: "h1" }])).toThrow(
      'ticket id "a1" appears more than once',
    );
    for (const bad of ["", "a,b", "a b", "é", "x\n", "x".repeat(65)]) {
      expect(() => canonicalTickets([{ id: bad, holder: "h" }])).toThrow(TicketListError);
      expect(() => canonicalTickets([{ id: "t", holder: bad }])).toThrow(/holder/);
    }
    expect(canonicalTickets([{ id: "x".repeat(64), holder: "y".repeat(64) }])).toHaveLength(1);
  });

  it("reads a published list back in the order written, refusing text that is not lines of id,holder", () => {
    expect(parseTicketList("b2,h7\na1,h7\n")).toEqual([
      { id: "b2", holder: "h7" },
      { id: "a1", holder: "h7" },
    ]);
    expect(parseTicketList("")).toEqual([]);
    expect(() => parseTicketList("a1,h7")).toThrow("must end with a line feed");
    expect(() => parseTicketList("id,holder\na1,h7,x\n")).toThrow('line 2 must be "id,holder"');
    expect(() => parseTicketList("a1,h7\r\n")).toThrow(/line 1/);
    expect(() => parseTicketList("a1,h7\n\n")).toThrow(/line 2/);
  });
});
