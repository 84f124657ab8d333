import { type Static, Type } from "typebox";
import { GROUP_DESCRIPTION_MAX_CHARS, GROUP_NAME_MAX_CHARS, JOIN_CODE_LENGTH } from "./constants.js";
import { firstCharacter, MultiLineText, SingleLineText } from "./text.js";

/** What join codes are made of: upper case letters and digits without look-alikes (no 0/O, 1/I/L). */
export const JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/**
 * A join code as the server stores it: what walkers type or paste, without the spaces, zero-width
 * spaces and dashes a message app may put in it, and in upper case. Anything else stays, so that a
 * control character is refused, not dropped.
 */
export function normaliseJoinCode(input: string): string {
  return input.replace(/[\s\u200B-\u200D\u2060\p{Pd}]/gu, "").toUpperCase();
}

const JOIN_CODE_SHAPE = new RegExp(`^[${JOIN_CODE_ALPHABET}]{${JOIN_CODE_LENGTH}}$`);

/** True when `code` (normalised) could be a join code; no group has any other. */
export function isJoinCode(code: string): boolean {
  return JOIN_CODE_SHAPE.test(code);
}

/** Group ids are positive integers that fit the database's integer column. */
export const GROUP_ID_MAX = 2_147_483_647;
/**
 * The most groups a walker can be in, the ones they started included: more than anyone walks with,
 * and a bound on what one walker's list, export and challenges can grow to.
 */
export const GROUPS_PER_WALKER_MAX = 50;

export const GroupId = Type.Integer({ minimum: 1, maximum: GROUP_ID_MAX });

/** `/api/groups/{id}…`: the id as a path segment (coerced from text, then checked). */
export const GroupIdParams = Type.Object({ id: GroupId });
export type GroupIdParams = Static<typeof GroupIdParams>;

/** `POST /api/groups`. The server trims both fields before these limits apply. */
export const CreateGroupRequest = Type.Object(
  {
    name: /* @__PURE__ */ SingleLineText({ minLength: 1, maxLength: GROUP_NAME_MAX_CHARS }),
    description: Type.Optional(/* @__PURE__ */ MultiLineText({ maxLength: GROUP_DESCRIPTION_MAX_CHARS })),
  },
  { additionalProperties: false },
);
export type CreateGroupRequest = Static<typeof CreateGroupRequest>;

/** `POST /api/groups/join`. The server removes spaces and upper-cases the code first. */
export const JoinGroupRequest = Type.Object(
  { joinCode: /* @__PURE__ */ SingleLineText({ minLength: 1, maxLength: JOIN_CODE_LENGTH }) },
  { additionalProperties: false },
);
export type JoinGroupRequest = Static<typeof JoinGroupRequest>;

/** `GET /api/groups/join/{code}`: what a join link's page shows before the walker joins. */
export const GROUP_INVITATION_PATH = "/api/groups/join/:code";
export function groupInvitationPath(joinCode: string): string {
  return `/api/groups/join/${encodeURIComponent(joinCode)}`;
}
/** A code as a link carries it: spaces and lower case are forgiven, as when typed. */
export const GroupInvitationParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 32 }) });
export type GroupInvitationParams = Static<typeof GroupInvitationParams>;
export const GroupInvitation = Type.Object({
  id: GroupId,
  name: Type.String(),
  description: Type.String(),
  memberCount: Type.Integer(),
  /** The signed-in walker already belongs to it. */
  member: Type.Boolean(),
});
export type GroupInvitation = Static<typeof GroupInvitation>;

/** A group, with how many walkers belong to it. `description` is "" when there is none. */
export const Group = Type.Object({
  id: GroupId,
  name: Type.String(),
  description: Type.String(),
  joinCode: Type.String(),
  adminUserId: Type.String(),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
  memberCount: Type.Integer(),
});
export type Group = Static<typeof Group>;

/** One of the signed-in walker's groups, as `GET /api/groups` lists them. */
export const MyGroup = Type.Object({
  ...Group.properties,
  isAdmin: Type.Boolean(),
  /** When the signed-in walker joined (for the admin: when they created it). */
  joinedAt: Type.String({ description: "ISO 8601 timestamp" }),
});
export type MyGroup = Static<typeof MyGroup>;

/** `GET /api/groups`: newest membership first. */
export const MyGroupsResponse = Type.Array(MyGroup);
export type MyGroupsResponse = Static<typeof MyGroupsResponse>;

/** What other members see of a walker: never their email. */
export const PublicUser = Type.Object({
  id: Type.String(),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  profileImageUrl: Type.Union([Type.String(), Type.Null()]),
});
export type PublicUser = Static<typeof PublicUser>;

export const GroupMember = Type.Object({
  userId: Type.String(),
  joinedAt: Type.String({ description: "ISO 8601 timestamp" }),
  user: PublicUser,
});
export type GroupMember = Static<typeof GroupMember>;

/** `GET /api/groups/{id}/members`: in the order they joined, so the admin comes first. */
export const GroupMembersResponse = Type.Array(GroupMember);
export type GroupMembersResponse = Static<typeof GroupMembersResponse>;

/** A member's steps today and this month (London days), ranked by the month's. */
export const GroupLeaderboardEntry = Type.Object({
  /** Standard competition ranking: equal monthly steps share a rank (1, 1, 3). */
  rank: Type.Integer({ minimum: 1 }),
  user: PublicUser,
  todaySteps: Type.Integer(),
  monthlySteps: Type.Integer(),
  /** Of the month's steps, those waiting for a check before they count for prizes; absent when none. */
  pendingSteps: Type.Optional(Type.Integer()),
});
export type GroupLeaderboardEntry = Static<typeof GroupLeaderboardEntry>;

/** `GET /api/groups/{id}/leaderboard`: every member, walkers without steps at 0. */
export const GroupLeaderboardResponse = Type.Array(GroupLeaderboardEntry);
export type GroupLeaderboardResponse = Static<typeof GroupLeaderboardResponse>;

/**
 * A walker as other walkers see them: first name and the last name's initial ("Joanna W"), never
 * an email; "A walker" when they gave no name.
 */
export function shortDisplayName(firstName: string | null, lastName: string | null): string {
  return [firstName, firstCharacter(lastName ?? "")].filter(Boolean).join(" ").trim() || "A walker";
}

/** A walker's initials for a picture that stands in for their photo ("JW"); "" when they gave no name. */
export function nameInitials(firstName: string | null, lastName: string | null): string {
  return [firstName, lastName]
    .map((name) => firstCharacter(name ?? ""))
    .join("")
    .toUpperCase();
}
