import { type Static, Type } from "typebox";

/** Every error the API answers with: JSON `{ message }`. */
export const ErrorResponse = Type.Object({ message: Type.String() });
export type ErrorResponse = Static<typeof ErrorResponse>;

/** The answer of a 204: nothing. */
export const NoContent = Type.Null({ description: "No content" });
