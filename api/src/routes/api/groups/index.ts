import {
  ChallengeInput,
  ChallengeItem,
  CreateGroupRequest,
  ErrorResponse,
  formatNumber,
  GROUP_INVITATION_PATH,
  GROUPS_PER_WALKER_MAX,
  Group,
  GroupIdParams,
  GroupInvitation,
  GroupInvitationParams,
  GroupLeaderboardResponse,
  GroupMembersResponse,
  groupChallengesPath,
  isJoinCode,
  isolated,
  JoinGroupRequest,
  MyGroupsResponse,
  NoContent,
  normaliseJoinCode,
  shortDisplayName,
  trimInvisible,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import { signedInUser } from "../../../auth/sessions.js";
import { ConflictError, ForbiddenError, NotFoundError } from "../../../errors.js";

export const GROUP_MESSAGES = {
  notFound: "This group does not exist: it may have been deleted.",
  unknownCode: "No group has this join code. Please check the code and try again.",
  membersOnly: "Only members of this group can see it. Join with its code first.",
  notMember: "You are not a member of this group.",
  adminCannotLeave: "You are this group's admin, so you cannot leave it: delete the group instead.",
  adminOnly: "Only the group's admin can delete it.",
  tooMany: `You are in ${GROUPS_PER_WALKER_MAX} groups, the most a walker can be in. Leave one to start or join another.`,
} as const;

/**
 * Lists that grow with a group are written by JSON.stringify. fast-json-stringify builds its output
 * by concatenation, which grows much worse than linearly with a large leaderboard.
 * The entries are built field by field to the schema, and the tests check their shape, so nothing
 * beyond it can leak.
 */
const growingList = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
const refusals = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/**
 * Walking groups and who may do what: detail,
 * members and leaderboard for members only; delete for the admin only; the admin cannot leave.
 */
export const groupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireUser);
  const { groups } = app.repositories;

  /** The group, for one of its members; 404 when there is none, 403 for anyone else. */
  const groupForMember = async (groupId: number, userId: string) => {
    const found = await groups.findForWalker(groupId, userId);
    if (!found) throw new NotFoundError(GROUP_MESSAGES.notFound);
    if (!found.member) throw new ForbiddenError(GROUP_MESSAGES.membersOnly);
    return found.group;
  };

  app.get(
    "/api/groups",
    { schema: { response: { 200: MyGroupsResponse, 401: ErrorResponse } } },
    async (request) => groups.listForUser(signedInUser(request).id),
  );

  app.post(
    "/api/groups",
    {
      preValidation: async (request) =>
        normaliseFields(request, { name: normaliseName, description: normaliseDescription }),
      schema: {
        body: CreateGroupRequest,
        response: { 201: Group, 400: ErrorResponse, 401: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { name, description = "" } = request.body;
      const adminUserId = signedInUser(request).id;
      const group = await groups.create({ adminUserId, name, description });
      if (!group) throw new ConflictError(GROUP_MESSAGES.tooMany);
      await app.services.badges.joinedGroup(adminUserId);
      return reply.status(201).send(group);
    },
  );

  app.post(
    groupChallengesPath(":id"),
    {
      schema: {
        params: GroupIdParams,
        body: ChallengeInput,
        response: { 201: ChallengeItem, ...refusals, 409: ErrorResponse },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await app.services.challenges.createForGroup(
            request.params.id,
            request.body,
            signedInUser(request).id,
          ),
        ),
  );

  app.post(
    "/api/groups/join",
    {
      preValidation: async (request) => normaliseFields(request, { joinCode: normaliseJoinCode }),
      schema: {
        body: JoinGroupRequest,
        response: {
          200: Group,
          201: Group,
          400: ErrorResponse,
          401: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { joinCode } = request.body;
      if (!isJoinCode(joinCode)) throw new NotFoundError(GROUP_MESSAGES.unknownCode);
      const walker = signedInUser(request);
      const userId = walker.id;
      const outcome = await groups.join(joinCode, userId);
      if (outcome.kind === "unknown-code") throw new NotFoundError(GROUP_MESSAGES.unknownCode);
      if (outcome.kind === "too-many") throw new ConflictError(GROUP_MESSAGES.tooMany);
      await app.services.badges.joinedGroup(userId);
      const { group } = outcome;
      if (outcome.kind === "joined" && group.adminUserId !== userId) {
        const name = shortDisplayName(walker.first_name, walker.last_name);
        await app.services.notifier.tell({
          userId: group.adminUserId,
          kind: "group_joined",
          eventKey: `${group.id}:${userId}`,
          title: `New member in ${isolated(group.name)}`,
          body: `${isolated(name)} joined ${isolated(group.name)}. The group now has ${formatNumber(group.memberCount)} members.`,
          url: `/groups/${group.id}`,
        });
      }
      return reply.status(outcome.kind === "joined" ? 201 : 200).send(outcome.group);
    },
  );

  app.get(
    GROUP_INVITATION_PATH,
    { schema: { params: GroupInvitationParams, response: { 200: GroupInvitation, ...refusals } } },
    async (request) => {
      const code = normaliseJoinCode(request.params.code);
      const group = isJoinCode(code) ? await groups.findByJoinCode(code) : undefined;
      if (!group) throw new NotFoundError(GROUP_MESSAGES.unknownCode);
      const member = (await groups.joinedAt(group.id, signedInUser(request).id)) !== undefined;
      const { id, name, description, memberCount } = group;
      return { id, name, description, memberCount, member };
    },
  );

  app.get(
    "/api/groups/:id",
    { schema: { params: GroupIdParams, response: { 200: Group, ...refusals } } },
    async (request) => groupForMember(request.params.id, signedInUser(request).id),
  );

  app.get(
    "/api/groups/:id/members",
    {
      ...growingList,
      schema: { params: GroupIdParams, response: { 200: GroupMembersResponse, ...refusals } },
    },
    async (request) => {
      const group = await groupForMember(request.params.id, signedInUser(request).id);
      return groups.members(group.id);
    },
  );

  app.get(
    "/api/groups/:id/leaderboard",
    {
      ...growingList,
      schema: { params: GroupIdParams, response: { 200: GroupLeaderboardResponse, ...refusals } },
    },
    async (request) => {
      const user = signedInUser(request);
      const group = await groupForMember(request.params.id, user.id);
      return app.services.groupLeaderboards.leaderboard(group.id, user.id);
    },
  );

  app.post(
    "/api/groups/:id/leave",
    { schema: { params: GroupIdParams, response: { 204: NoContent, ...refusals } } },
    async (request, reply) => {
      const user = signedInUser(request);
      const group = await groups.findById(request.params.id);
      if (!group) throw new NotFoundError(GROUP_MESSAGES.notFound);
      if (group.adminUserId === user.id) throw new ForbiddenError(GROUP_MESSAGES.adminCannotLeave);
      if (!(await groups.leave(group.id, user.id))) throw new ForbiddenError(GROUP_MESSAGES.notMember);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    "/api/groups/:id",
    { schema: { params: GroupIdParams, response: { 204: NoContent, ...refusals } } },
    async (request, reply) => {
      const group = await groups.findById(request.params.id);
      if (!group) throw new NotFoundError(GROUP_MESSAGES.notFound);
      if (group.adminUserId !== signedInUser(request).id) throw new ForbiddenError(GROUP_MESSAGES.adminOnly);
      await groups.delete(group.id);
      return reply.status(204).send(null);
    },
  );
};

// Names are one line, descriptions keep their line breaks; other control characters go (PostgreSQL's
// text cannot hold NUL, and no walker means to type one).
const normaliseName = (text: string) => trimInvisible(text.replace(/\p{Cc}/gu, ""));
const normaliseDescription = (text: string) => trimInvisible(text.replace(/(?![\t\n\r])\p{Cc}/gu, ""));

/** Normalises the given text fields of a JSON body, before the schema checks their length. */
function normaliseFields(
  request: FastifyRequest,
  normalisers: Record<string, (text: string) => string>,
): void {
  const body = request.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return;
  const record = body as Record<string, unknown>;
  for (const [field, normalise] of Object.entries(normalisers)) {
    const value = record[field];
    if (typeof value === "string") record[field] = normalise(value);
  }
}
