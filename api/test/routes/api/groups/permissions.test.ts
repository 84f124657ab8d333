import { GROUP_DESCRIPTION_MAX_CHARS, GROUP_NAME_MAX_CHARS } from "@charity-steps/shared-types";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, dialects, type TestApp } from "../../../helper.js";
import { groupsWalker } from "../../../support/groups.js";

type Role = "signed out" | "non-member" | "member" | "admin";

interface GroupsCall {
  method: "GET" | "POST" | "DELETE";
  url: (group: { id: number }) => string;
  body?: (group: { joinCode: string }) => unknown;
  expected: Record<Role, number>;
}

/** Every groups route and what each kind of caller gets. */
const ROLE_MATRIX: GroupsCall[] = [
  {
    method: "GET",
    url: () => "/api/groups",
    expected: { "signed out": 401, "non-member": 200, member: 200, admin: 200 },
  },
  {
    method: "POST",
    url: () => "/api/groups",
    body: () => ({ name: "Another walk", description: "" }),
    expected: { "signed out": 401, "non-member": 201, member: 201, admin: 201 },
  },
  {
    method: "POST",
    url: () => "/api/groups/join",
    body: (group) => ({ joinCode: group.joinCode }),
    expected: { "signed out": 401, "non-member": 201, member: 200, admin: 200 },
  },
  {
    method: "GET",
    url: (group) => `/api/groups/${group.id}`,
    expected: { "signed out": 401, "non-member": 403, member: 200, admin: 200 },
  },
  {
    method: "GET",
    url: (group) => `/api/groups/${group.id}/members`,
    expected: { "signed out": 401, "non-member": 403, member: 200, admin: 200 },
  },
  {
    method: "GET",
    url: (group) => `/api/groups/${group.id}/leaderboard`,
    expected: { "signed out": 401, "non-member": 403, member: 200, admin: 200 },
  },
  {
    method: "POST",
    url: (group) => `/api/groups/${group.id}/leave`,
    expected: { "signed out": 401, "non-member": 403, member: 204, admin: 403 },
  },
  {
    method: "DELETE",
    url: (group) => `/api/groups/${group.id}`,
    expected: { "signed out": 401, "non-member": 403, member: 403, admin: 204 },
  },
];

const ROLES: Role[] = ["signed out", "non-member", "member", "admin"];
const CASES = ROLE_MATRIX.flatMap((call) =>
  ROLES.map((role) => ({
    ...call,
    role,
    status: call.expected[role],
    label: `${call.method} ${call.url({ id: 7 })}`,
  })),
);

describe.each(dialects)("who may call the groups routes (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp.close());

  /** A group with an admin and one other member, and a walker who belongs to neither. */
  const groupWithRoles = async () => {
    const admin = await groupsWalker(testApp.app, "Admin");
    const member = await groupsWalker(testApp.app, "Member");
    const outsider = await groupsWalker(testApp.app, "Outsider");
    const group = (await admin.api.createGroup("Lunch loop", "Round the park")).json();
    expect((await member.api.join(group.joinCode)).statusCode).toBe(201);
    return { group, cookies: { admin: admin.cookie, member: member.cookie, "non-member": outsider.cookie } };
  };

  it.each(CASES)("$label as $role answers $status", async ({ method, url, body, status, role }) => {
    const { group, cookies } = await groupWithRoles();
    const payload = body?.(group);
    const response = await testApp.app.inject({
      method,
      url: url(group),
      headers: {
        ...(role === "signed out" ? {} : { cookie: cookies[role] }),
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    expect(response.statusCode).toBe(status);
    if (response.statusCode >= 400) expect(response.json().message).toEqual(expect.any(String));
    if (response.statusCode === 204) expect(response.body).toBe("");
  });

  it("tells the admin to delete the group instead of leaving it, and keeps them in it", async () => {
    const admin = await groupsWalker(testApp.app);
    const group = (await admin.api.createGroup("Canal walkers")).json();
    const response = await admin.api.post(`/api/groups/${group.id}/leave`);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(
      "You are this group's admin, so you cannot leave it: delete the group instead.",
    );
    expect((await admin.api.get(`/api/groups/${group.id}`)).json().memberCount).toBe(1);
  });

  it("answers 404 with a message for a group that does not exist, on every route that names one", async () => {
    const walker = await groupsWalker(testApp.app);
    for (const [method, url] of [
      ["GET", "/api/groups/987654"],
      ["GET", "/api/groups/987654/members"],
      ["GET", "/api/groups/987654/leaderboard"],
      ["POST", "/api/groups/987654/leave"],
      ["DELETE", "/api/groups/987654"],
    ] as const) {
      const response =
        method === "GET"
          ? await walker.api.get(url)
          : method === "POST"
            ? await walker.api.post(url)
            : await walker.api.delete(url);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().message).toBe("This group does not exist: it may have been deleted.");
    }
  });

  it("answers a member who reads a group while its admin deletes it with the group or with 404, never 403", async () => {
    const statuses = new Set<number>();
    for (let round = 0; round < 10; round++) {
      const admin = await groupsWalker(testApp.app, "Admin");
      const member = await groupsWalker(testApp.app, "Member");
      const group = (await admin.api.createGroup("Lunch loop")).json();
      expect((await member.api.join(group.joinCode)).statusCode).toBe(201);
      const reads = ["", "/members", "/leaderboard"].flatMap((path) =>
        Array.from({ length: 4 }, () => member.api.get(`/api/groups/${group.id}${path}`)),
      );
      const [deleted, ...answers] = await Promise.all([
        admin.api.delete(`/api/groups/${group.id}`),
        ...reads,
      ]);
      expect(deleted.statusCode).toBe(204);
      for (const answer of answers) {
        statuses.add(answer.statusCode);
        if (answer.statusCode === 404) {
          expect(answer.json().message).toBe("This group does not exist: it may have been deleted.");
        }
      }
    }
    expect([...statuses].filter((status) => status !== 200 && status !== 404)).toEqual([]);
  });

  describe("bad input", () => {
    const expectRefusal = (response: LightMyRequestResponse, message: string) => {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message });
    };

    it("refuses a name that is blank, missing or longer than 60 characters once trimmed", async () => {
      const { api } = await groupsWalker(testApp.app);
      expectRefusal(
        await api.createGroup("x".repeat(GROUP_NAME_MAX_CHARS + 1)),
        "name must be at most 60 characters.",
      );
      expectRefusal(await api.createGroup(""), "name must not be empty.");
      expectRefusal(await api.createGroup("   \t "), "name must not be empty.");
      expectRefusal(await api.post("/api/groups", { description: "No name" }), "name is required.");
      expectRefusal(await api.post("/api/groups", { name: 42 }), "name must be text.");
      expectRefusal(
        await api.post("/api/groups", { name: "Walkers", colour: "red" }),
        "colour is not a field this request takes.",
      );
      expectRefusal(await api.post("/api/groups"), "The request body must be an object.");
      expect((await api.get("/api/groups")).json()).toEqual([]);
    });

    it("refuses a description longer than 500 characters once trimmed", async () => {
      const { api } = await groupsWalker(testApp.app);
      expectRefusal(
        await api.createGroup("Walkers", "d".repeat(GROUP_DESCRIPTION_MAX_CHARS + 1)),
        "description must be at most 500 characters.",
      );
      const padded = await api.createGroup("Walkers", `  ${"d".repeat(GROUP_DESCRIPTION_MAX_CHARS)}  `);
      expect(padded.statusCode).toBe(201);
      expect(padded.json().description).toBe("d".repeat(GROUP_DESCRIPTION_MAX_CHARS));
    });

    it("refuses a join code that is empty or longer than 8 characters", async () => {
      const { api } = await groupsWalker(testApp.app);
      expectRefusal(await api.join("ABCDEFGHJ"), "joinCode must be at most 8 characters.");
      expectRefusal(await api.join("  "), "joinCode must not be empty.");
      expectRefusal(await api.post("/api/groups/join", {}), "joinCode is required.");
      expectRefusal(await api.post("/api/groups/join", { joinCode: 12345678 }), "joinCode must be text.");
    });

    it("answers an unknown join code with 404 and a message to check it", async () => {
      const { api } = await groupsWalker(testApp.app);
      const response = await api.join("ZZZZZZZZ");
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        message: "No group has this join code. Please check the code and try again.",
      });
    });

    it("refuses a group id that is not a positive whole number, on every route that takes one", async () => {
      const walker = await groupsWalker(testApp.app);
      const ids: [string, string][] = [
        ["abc", "id must be a whole number."],
        ["1.5", "id must be a whole number."],
        ["Infinity", "id must be a whole number."],
        ["0x10", "id must be a whole number."],
        ["1e3", "id must be a whole number."],
        ["%20", "id must be a whole number."],
        ["0", "id must be at least 1."],
        ["-3", "id must be at least 1."],
        ["99999999999999999999", "id must be at most 2,147,483,647."],
      ];
      for (const [id, message] of ids) {
        for (const response of [
          await walker.api.get(`/api/groups/${id}`),
          await walker.api.get(`/api/groups/${id}/members`),
          await walker.api.get(`/api/groups/${id}/leaderboard`),
          await walker.api.post(`/api/groups/${id}/leave`),
          await walker.api.delete(`/api/groups/${id}`),
        ]) {
          expectRefusal(response, message);
        }
      }
    });

    it("never answers 5xx to odd ids, bodies or content", async () => {
      const walker = await groupsWalker(testApp.app);
      const group = (await walker.api.createGroup("Odd inputs")).json();
      const responses = [
        ...(await Promise.all(
          [
            "%20",
            "1e3",
            "00001",
            "0x10",
            "NaN",
            "9".repeat(400),
            "1;drop table groups",
            "%00",
            "' or 1=1 --",
          ].map((id) => walker.api.get(`/api/groups/${id}/leaderboard`)),
        )),
        await walker.api.post("/api/groups", null),
        await walker.api.post("/api/groups", []),
        await walker.api.post("/api/groups", "a name"),
        await walker.api.post("/api/groups", { name: "x", description: null }),
        await walker.api.post("/api/groups/join", { joinCode: "' OR 1=1" }),
        await walker.api.post("/api/groups/join", { joinCode: "\u0000\u0000" }),
        await walker.api.post("/api/groups", { name: "\u0000", description: "\u0000" }),
        await walker.api.post("/api/groups", {
          name: "Night\u0000 walkers",
          description: "Dusk\u0000\nto dawn",
        }),
        await walker.api.post("/api/groups", { name: "\u{1F6B6}".repeat(GROUP_NAME_MAX_CHARS) }),
        await testApp.app.inject({
          method: "POST",
          url: "/api/groups",
          headers: { cookie: walker.cookie, "content-type": "application/json" },
          payload: '{"name": "unfinished',
        }),
        await testApp.app.inject({
          method: "POST",
          url: "/api/groups/join",
          headers: { cookie: walker.cookie, "content-type": "text/plain" },
          payload: group.joinCode,
        }),
      ];
      for (const response of responses) {
        expect(response.statusCode, response.body).toBeLessThan(500);
        expect(response.json().message ?? "ok").toEqual(expect.any(String));
      }
      expect(responses.at(-5)?.json().message).toBe("name must not be empty.");
      expect(responses.at(-4)?.json()).toMatchObject({ name: "Night walkers", description: "Dusk\nto dawn" });
      // A name of 60 walking figures is 60 characters (code points), not 120 UTF-16 units.
      expect(responses.at(-3)?.statusCode).toBe(201);
      expect((await walker.api.get(`/api/groups/${group.id}`)).statusCode).toBe(200);
    });
  });
});
