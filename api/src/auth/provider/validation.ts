import { Type } from "typebox";
import { passwordWeakness } from "../passwords.js";
import type { SignUpValues } from "./pages.js";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME_MAX = 100;
const EMAIL_MAX = 254;

export const UidParams = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 100 }) });

/**
 * Every field is optional so that an empty one is answered by the form again, with a sentence; the
 * length bound only stops oversized bodies.
 */
const text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
export const SignInBody = Type.Object({ email: text(1000), password: text(1000) });
export const SignUpBody = Type.Object({
  firstName: text(1000),
  lastName: text(1000),
  email: text(1000),
  password: text(1000),
});

export const MISSING_CREDENTIALS_MESSAGE = "Enter your email and your password.";

/** What is wrong with a sign-up form, as the page says it, or null when it can make an account. */
export function signUpProblem(values: Required<SignUpValues>, password: string): string | null {
  if (!values.firstName || !values.lastName) return "Enter your first name and last name.";
  if (values.firstName.length > NAME_MAX || values.lastName.length > NAME_MAX) {
    return `Names can be at most ${NAME_MAX} characters long.`;
  }
  if (!EMAIL_PATTERN.test(values.email) || values.email.length > EMAIL_MAX) {
    return "Enter a valid email address, like name@example.com.";
  }
  return passwordWeakness(password, values.email);
}
