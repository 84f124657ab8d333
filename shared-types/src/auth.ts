import { type Static, Type } from "typebox";

/** The signed-in walker, as `GET /api/auth/user` answers. */
export const AuthUser = Type.Object({
  id: Type.String(),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  profileImageUrl: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ description: "ISO 8601 timestamp" }),
});
export type AuthUser = Static<typeof AuthUser>;
