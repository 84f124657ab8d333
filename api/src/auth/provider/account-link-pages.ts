/** The pages mailed links open (and the forgotten-password form), styled as the provider's sign-in pages. */
import { CONFIRM_EMAIL_PATH, FORGOT_PASSWORD_PATH, PASSWORD_RESET_PATH } from "./account-links.js";
import { errorBox, escapeHtml, field, layout, messagePage } from "./pages.js";

export const RESET_SENT_MESSAGE =
  "If an account uses this email, we've sent a link to choose a new password. It works for one hour. Check your inbox (and your spam folder).";
export const LINK_USED_MESSAGE = "This link has been used or has expired: ask for a new one.";
export const tooManyResetsMessage = (minutes: number) =>
  `Too many password reset requests. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
export const ENTER_EMAIL_MESSAGE = "Enter the email address of your account, like name@example.com.";

export function forgotPasswordPage(values: { email?: string } = {}, error?: string): string {
  return layout(
    "Forgot your password?",
    `<h1>Forgot your password?</h1>
<p class="lead">Enter the email of your account and we'll send you a link to choose a new password.</p>
${errorBox(error)}
<form method="post" action="${FORGOT_PASSWORD_PATH}" novalidate>
${field("email", "Email", "email", values.email ?? "", "email")}
<button type="submit">Send me a link</button>
</form>
<p class="switch"><a href="/api/login">Back to sign in</a></p>`,
  );
}

export function resetSentPage(): string {
  return layout(
    "Check your mail",
    `<h1>Check your mail</h1>
<p class="notice" role="status">${escapeHtml(RESET_SENT_MESSAGE)}</p>
<p class="lead">No mail after a few minutes? Check the address and ask again.</p>
<a class="button" href="/api/login">Back to sign in</a>`,
  );
}

/** The link's token, carried in the form's body: only the form's POST acts, never opening the link. */
const tokenInput = (token: string) => `<input type="hidden" name="token" value="${escapeHtml(token)}">`;

export function newPasswordPage(token: string, email: string, error?: string): string {
  return layout(
    "Choose a new password",
    `<h1>Choose a new password</h1>
<p class="lead">For your account ${escapeHtml(email)}. Once it is saved, you are signed in and every other device is signed out.</p>
${errorBox(error)}
<form method="post" action="${PASSWORD_RESET_PATH}" novalidate>
${tokenInput(token)}
<input type="hidden" name="username" value="${escapeHtml(email)}" autocomplete="username">
${field("password", "New password", "password", "", "new-password")}
<p class="hint">At least 8 characters, and not a common or leaked password: a few unrelated words make a good one.</p>
<button type="submit">Save and sign in</button>
</form>`,
  );
}

/**
 * What a confirmation link opens: one button, whose POST confirms. Mail scanners and link previews
 * open links; they do not press buttons.
 */
export function confirmEmailPage(token: string, kind: "email-confirmation" | "email-change", email: string) {
  const [title, lead, button] =
    kind === "email-confirmation"
      ? [
          "Confirm your email",
          `Confirm that ${email} is the address of your Charity Steps account.`,
          "Confirm my email",
        ]
      : [
          "Use your new email",
          `Move your Charity Steps account to ${email}? From then on you sign in with it, and mail about your account goes there.`,
          "Use this email",
        ];
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="lead">${escapeHtml(lead)}</p>
<form method="post" action="${CONFIRM_EMAIL_PATH}">
${tokenInput(token)}
<button type="submit">${escapeHtml(button)}</button>
</form>`,
  );
}

export const linkUsedPage = (again: { href: string; label: string }) =>
  messagePage("Link no longer works", LINK_USED_MESSAGE, again);
