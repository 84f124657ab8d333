import { type Static, Type } from "typebox";
import { PreferencesResponse } from "./habit.js";
import { SingleLineText } from "./text.js";

/** The signed-in walker, as `GET /api/auth/user` answers. */
export const AuthUser = Type.Object({
  id: Type.String(),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  profileImageUrl: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
  emailVerified: Type.Boolean({
    description: "The walker's email is confirmed: by its mailed link, or by the provider's email_verified",
  }),
  isOperator: Type.Boolean({
    description: "The walker runs the prize draw: their confirmed email is one of OPERATOR_EMAILS",
  }),
  accountKind: Type.Union([Type.Literal("built-in"), Type.Literal("external")], {
    description: "built-in: an account of this app's own sign-in (its password and email are changed here)",
  }),
  theme: PreferencesResponse.properties.theme,
  onboardedAt: PreferencesResponse.properties.onboardedAt,
});
export type AuthUser = Static<typeof AuthUser>;

/** `POST /api/account/password`: a built-in account's new password, with its current one. */
export const ChangePasswordRequest = Type.Object({
  currentPassword: Type.String({ maxLength: 1000 }),
  newPassword: Type.String({ maxLength: 1000 }),
});
export type ChangePasswordRequest = Static<typeof ChangePasswordRequest>;

/** `POST /api/account/email`: the address to move a built-in account to, once it is confirmed. */
export const ChangeEmailRequest = Type.Object({
  newEmail: /* @__PURE__ */ SingleLineText({ maxLength: 1000 }),
  currentPassword: Type.String({ maxLength: 1000 }),
});
export type ChangeEmailRequest = Static<typeof ChangeEmailRequest>;

/** What the account's credential routes answer on success: a sentence for the walker. */
export const AccountMessage = Type.Object({ message: Type.String() });
export type AccountMessage = Static<typeof AccountMessage>;
