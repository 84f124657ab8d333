import { type GroupInvitation, groupInvitationPath } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, dialects, type TestApp } from "../../../helper.js";
import { useTestClock } from "../../../support/clock.js";
import { groupsWalker } from "../../../support/groups.js";

useTestClock();

describe.each(dialects)("a group's join link (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp.close());

  it("shows a walker the group's name before they join, and that they belong once they have", async () => {
    const admin = await groupsWalker(testApp.app, "Ada");
    const group = (await admin.api.createGroup("Canal walkers", "Saturdays at nine.")).json();
    const guest = await groupsWalker(testApp.app, "Bo");

    const before = await guest.api.get(groupInvitationPath(group.joinCode));
    expect(before.statusCode).toBe(200);
    expect(before.json<GroupInvitation>()).toEqual({
      id: group.id,
      name: "Canal walkers",
      description: "Saturdays at nine.",
      memberCount: 1,
      member: false,
    });
    // Looking joins nobody.
    expect((await guest.api.get("/api/groups")).json()).toEqual([]);

    expect((await guest.api.join(group.joinCode)).statusCode).toBe(201);
    // As typed or shared: spaces and lower case are forgiven.
    const spaced = `${group.joinCode.slice(0, 4).toLowerCase()} ${group.joinCode.slice(4)}`;
    expect((await guest.api.get(groupInvitationPath(spaced))).json<GroupInvitation>()).toMatchObject({
      memberCount: 2,
      member: true,
    });
    const dashed = `${group.joinCode.slice(0, 4)}-${group.joinCode.slice(4)}`;
    expect((await guest.api.get(groupInvitationPath(dashed))).statusCode).toBe(200);
    expect((await admin.api.get(groupInvitationPath(group.joinCode))).json<GroupInvitation>().member).toBe(
      true,
    );
  });

  it("answers a code no group has with a 404 that says so, and an overlong one with a 400", async () => {
    const walker = await groupsWalker(testApp.app, "Cy");
    for (const code of ["ZZZZZZZZ", "not-a-code", "%00", "ABCD"]) {
      const response = await walker.api.get(groupInvitationPath(code));
      expect(response.statusCode, code).toBe(404);
      expect(response.json().message).toBe(
        "No group has this join code. Please check the code and try again.",
      );
    }
    expect((await walker.api.get(groupInvitationPath("A".repeat(33)))).statusCode).toBe(400);
  });
});
