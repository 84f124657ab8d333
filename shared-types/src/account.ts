import { type Static, Type } from "typebox";
import { SingleLineText } from "./text.js";

/** A ZIP of everything the service holds about the signed-in walker. */
export const ACCOUNT_EXPORT_PATH = "/api/account/export";
/** DELETE erases the signed-in walker's account. */
export const ACCOUNT_PATH = "/api/account";
/** The walker's signed-in browsers. */
export const ACCOUNT_SESSIONS_PATH = "/api/account/sessions";
export const END_OTHER_SESSIONS_PATH = "/api/account/sessions/end-others";

/** What an account without an email types to confirm its deletion. */
export const DELETE_CONFIRM_WORD = "DELETE";
/** A session's User-Agent is kept to this length: enough to name a browser, no more. */
export const SESSION_USER_AGENT_MAX_CHARS = 256;

export const ACCOUNT_MESSAGES = {
  confirmEmail: "Type your account's email to confirm",
  confirmWord: `Type ${DELETE_CONFIRM_WORD} to confirm`,
  exportRunning: "Your data is already being prepared in another download. Please wait for it to finish.",
  exportBusy: "Many downloads are being prepared right now. Please try again in a minute.",
  sessionNotFound: "This device is not signed in to your account: it may have been signed out already.",
} as const;

export const DeleteAccountRequest = Type.Object(
  {
    /** The account's email (any case), or DELETE_CONFIRM_WORD for an account that has none. */
    confirmEmail: /* @__PURE__ */ SingleLineText({ maxLength: 320 }),
  },
  { additionalProperties: false },
);
export type DeleteAccountRequest = Static<typeof DeleteAccountRequest>;

export const AccountSession = Type.Object({
  id: Type.String({ format: "uuid" }),
  /** "Chrome on Android"; "Unknown browser" when the session was opened before browsers were kept. */
  browser: Type.String(),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
  lastSeenAt: Type.String({ description: "ISO 8601 timestamp" }),
  /** The session this request came with. */
  current: Type.Boolean(),
});
export type AccountSession = Static<typeof AccountSession>;

export const AccountSessionList = Type.Array(AccountSession);
export type AccountSessionList = Static<typeof AccountSessionList>;

export const AccountSessionParams = Type.Object({ id: Type.String({ format: "uuid" }) });
export type AccountSessionParams = Static<typeof AccountSessionParams>;

export const EndOtherSessionsResponse = Type.Object({ ended: Type.Integer({ minimum: 0 }) });
export type EndOtherSessionsResponse = Static<typeof EndOtherSessionsResponse>;
