import type { AuthUser } from "@charity-steps/shared-types";

/** The signed-in walker of the tests: a built-in account, not an operator. */
export const testWalker: AuthUser = {
  id: "user-1",
  firstName: "Ada",
  lastName: "Walker",
  email: "ada@example.com",
  profileImageUrl: null,
  createdAt: "2025-03-14T09:30:00.000Z",
  emailVerified: true,
  isOperator: false,
  accountKind: "built-in",
  theme: "system",
  onboardedAt: "2025-03-14T09:31:00.000Z",
};
