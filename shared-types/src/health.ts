import { type Static, Type } from "typebox";

export const HealthResponse = Type.Object({
  status: Type.Literal("ok"),
  database: Type.Union([Type.Literal("sqlite"), Type.Literal("postgres")]),
});
export type HealthResponse = Static<typeof HealthResponse>;
