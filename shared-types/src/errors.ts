import { type Static, Type } from "typebox";

/** Every error the API answers with: JSON `{ message }`. */
export const ErrorResponse = Type.Object({ message: Type.String() });
export type ErrorResponse = Static<typeof ErrorResponse>;
