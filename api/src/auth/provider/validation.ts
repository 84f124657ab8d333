import { isEmailAddress, SingleLineText } from "@charity-steps/shared-types";
import { Type } from "typebox";
import { passwordWeakness } from "../passwords.js";
import type { SignUpValues } from "./pages.js";

const NAME_MAX = 100;

export const UidParams = Type.Object({ uid: SingleLineText({ minLength: 1, maxLength: 100 }) });

/**
 * Every field is optional so that an empty one is answered by the form again, with a sentence; the
 * length bound only stops oversized bodies. Names and emails hold no control characters (the
 * database could not store NUL); a password may hold any character, as it is only ever hashed.
 */
const text = (maxLength: number) => Type.Optional(SingleLineText({ maxLength }));
const password = Type.Optional(Type.String({ maxLength: 1000 }));
export const SignInBody = Type.Object({ email: text(1000), password });
export const SignUpBody = Type.Object({
  firstName: text(1000),
  lastName: text(1000),
  email: text(1000),
  password,
});

export const MISSING_CREDENTIALS_MESSAGE = "Enter your email and your password.";
export const CONTROL_CHARACTERS_FORM_MESSAGE =
  "Names and email addresses cannot contain control characters. Please type them again.";
export const UNREADABLE_FORM_MESSAGE = "The form could not be read. Please fill it in again.";

/** What is wrong with a sign-up form, as the page says it, or null when it can make an account. */
export async function signUpProblem(
  values: Required<SignUpValues>,
  password: string,
): Promise<string | null> {
  if (!values.firstName || !values.lastName) return "Enter your first name and last name.";
  if (values.firstName.length > NAME_MAX || values.lastName.length > NAME_MAX) {
    return `Names can be at most ${NAME_MAX} characters long.`;
  }
  if (!isEmailAddress(values.email)) {
    return "Enter a valid email address, like name@example.com.";
  }
  return passwordWeakness(password, values.email, [values.firstName, values.lastName]);
}
