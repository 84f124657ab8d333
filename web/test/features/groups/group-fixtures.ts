import type { Group } from "@charity-steps/shared-types";

/** Group 12, "Lunchtime Striders", as `GET /api/groups/12` answers it. */
export function lunchtimeStriders(overrides: Pick<Group, "adminUserId" | "memberCount">): Group {
  return {
    id: 12,
    name: "Lunchtime Striders",
    description: "",
    joinCode: "ABCDEFGH",
    createdAt: "2026-11-01T12:00:00.000Z",
    ...overrides,
  };
}
