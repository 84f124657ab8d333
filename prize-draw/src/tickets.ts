/**
 * The draw's tickets and their canonical list.
 *
 * A ticket is `{ id, holder }`: `id` is the ticket's public id (it reveals no name) and `holder`
 * an opaque id of the person holding it (a walker or a postal entrant), new every month, so that
 * anyone can check that nobody won twice. Both are 1 to 64 characters from `A-Z a-z 0-9 _ -`.
 *
 * Canonical order: ascending by `id`, comparing bytes (for these ASCII ids, plain string order);
 * ids are unique.
 *
 * Canonical serialization (what `GET /api/draws/{YYYY-MM}/tickets` serves and what
 * `ticketListSha256` hashes): UTF-8 text, one line per ticket in canonical order, each line the
 * ticket's `id`, a comma, its `holder`, and a line feed (`\n`, 0x0A). No header, no spaces, no
 * carriage returns; every line, the last included, ends with `\n`; no tickets is the empty text.
 * Example: `"a1,h7\nb2,h7\nc3,h9\n"`.
 */
import { DRAW_HOLDER_ID_PATTERN, DRAW_TICKET_ID_PATTERN } from "@charity-steps/shared-types";
import { sha256Hex, utf8 } from "./sha256.js";

export interface Ticket {
  id: string;
  holder: string;
}

const TICKET_ID = new RegExp(DRAW_TICKET_ID_PATTERN);
const HOLDER_ID = new RegExp(DRAW_HOLDER_ID_PATTERN);

export class TicketListError extends Error {
  override name = "TicketListError";
}

/** Byte order of the ids (the same as UTF-16 order for the ASCII the ids are held to). */
export const compareTicketIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function checkTicket(ticket: Ticket, where: string): void {
  if (!TICKET_ID.test(ticket.id)) {
    throw new TicketListError(
      `${where}: ticket id "${ticket.id}" must be 1 to 64 of the characters A-Z a-z 0-9 _ -`,
    );
  }
  if (!HOLDER_ID.test(ticket.holder)) {
    throw new TicketListError(
      `${where}: holder "${ticket.holder}" of ticket ${ticket.id} must be 1 to 64 of the characters A-Z a-z 0-9 _ -`,
    );
  }
}

/**
 * The tickets in canonical order, checked: every id and holder valid, no id twice. Throws a
 * `TicketListError` saying which ticket is wrong.
 */
export function canonicalTickets(tickets: readonly Ticket[]): Ticket[] {
  tickets.forEach((ticket, index) => {
    checkTicket(ticket, `ticket ${index + 1}`);
  });
  const sorted = tickets
    .map(({ id, holder }) => ({ id, holder }))
    .sort((a, b) => compareTicketIds(a.id, b.id));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]?.id === sorted[i - 1]?.id) {
      throw new TicketListError(`ticket id "${sorted[i]?.id}" appears more than once`);
    }
  }
  return sorted;
}

/** The canonical text of the tickets (sorted and checked first). */
export function serializeTickets(tickets: readonly Ticket[]): string {
  return canonicalTickets(tickets)
    .map((ticket) => `${ticket.id},${ticket.holder}\n`)
    .join("");
}

/** Lower-case hex SHA-256 of the canonical text's UTF-8 bytes. */
export function ticketListSha256(tickets: readonly Ticket[]): string {
  return sha256Hex(utf8(serializeTickets(tickets)));
}

/**
 * Reads a ticket list as published, in the order written, without sorting it: the verifier must
 * see a list that is out of order or holds an id twice, to say so. Throws a `TicketListError` for
 * text that is not lines of `id,holder\n` with valid ids.
 */
export function parseTicketList(text: string): Ticket[] {
  if (text === "") return [];
  if (!text.endsWith("\n"))
    throw new TicketListError("the ticket list's last line must end with a line feed");
  return text
    .slice(0, -1)
    .split("\n")
    .map((line, index) => {
      const fields = line.split(",");
      if (fields.length !== 2) {
        throw new TicketListError(`line ${index + 1} must be "id,holder", got "${line}"`);
      }
      const ticket = { id: fields[0] ?? "", holder: fields[1] ?? "" };
      checkTicket(ticket, `line ${index + 1}`);
      return ticket;
    });
}
