export {
  type BeaconSignatureCheck,
  checkBeaconSignature,
  firstRoundAfter,
  KNOWN_DRAND_CHAINS,
} from "./beacon.js";
export {
  type DrawInput,
  type DrawOutcome,
  type DrawTierInput,
  drawWinners,
  type RedrawInput,
  type RedrawOutcome,
  redraw,
  type Win,
  type Winner,
} from "./draw.js";
export { bitsFor, DRAW_DOMAIN, DrawStream, MAX_INDEX_RANGE } from "./random.js";
export { newDrawSeed, seedCommitment } from "./seed.js";
export { sha256Hex } from "./sha256.js";
export {
  canonicalTickets,
  compareTicketIds,
  parseTicketList,
  serializeTickets,
  type Ticket,
  TicketListError,
  ticketListSha256,
} from "./tickets.js";
export { type Finding, type Verification, verifyDraw } from "./verify.js";
