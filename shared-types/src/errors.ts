import { type Static, Type } from "typebox";

/** Every error the API answers with: JSON `{ message }` (DESIGN §6). */
export const ErrorResponse = Type.Object({ message: Type.String() });
export type ErrorResponse = Static<typeof ErrorResponse>;
