import type { ParsedMail } from "mailparser";
import {
  CONFIRM_EMAIL_PATH,
  FORGOT_PASSWORD_PATH,
  PASSWORD_RESET_PATH,
} from "../../src/auth/provider/account-links.js";
import { ACCOUNT_PASSWORD_PATH } from "../../src/routes/api/account/credentials.js";
import {
  type NewWalker,
  newWalker,
  type RunningServer,
  signUp,
  startTestServer,
  TestBrowser,
  type TestDialect,
  type Visit,
} from "../helper.js";
import { startSmtpServer, type TestSmtpServer, waitFor } from "./smtp-server.js";

export interface AccountServer {
  server: RunningServer;
  smtp: TestSmtpServer;
  close(): Promise<void>;
}

/** The app on a real port, its mail sent to a real SMTP server in the test process. */
export async function startAccountServer(
  dialect: TestDialect,
  env: Record<string, string> = {},
): Promise<AccountServer> {
  const smtp = await startSmtpServer();
  const server = await startTestServer(dialect, { SMTP_URL: smtp.url, ...env });
  return {
    server,
    smtp,
    async close() {
      await server.close();
      await smtp.close();
    },
  };
}

const addressesOf = (mail: ParsedMail) =>
  [mail.to ?? []].flat().flatMap((to) => to.value.map((entry) => entry.address?.toLowerCase()));

/** Every mail received so far for `address`. */
export function mailsTo(smtp: TestSmtpServer, address: string): ParsedMail[] {
  return smtp.received.filter((mail) => addressesOf(mail).includes(address.toLowerCase()));
}

/** Waits for the `count`-th mail to `address` (1 = the first) and answers it. */
export async function nthMailTo(smtp: TestSmtpServer, address: string, count = 1): Promise<ParsedMail> {
  await waitFor(() => mailsTo(smtp, address).length >= count);
  const mail = mailsTo(smtp, address)[count - 1];
  if (!mail) throw new Error(`no mail ${count} to ${address}`);
  return mail;
}

/** The link of `path` (e.g. /auth/password-reset) in a mail's plain text. */
export function linkIn(mail: ParsedMail, origin: string, path: string): string {
  const escapedOrigin = origin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`${escapedOrigin}${path}/[A-Za-z0-9_-]+`).exec(mail.text ?? "");
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[0];
}

/**
 * Follows a mailed confirmation link as a walker does: opens it (which changes nothing), then
 * presses the page's one button. A link that no longer works answers its page at once.
 */
export async function followConfirmation(browser: TestBrowser, link: string): Promise<Visit> {
  const page = await browser.visit(link);
  if (page.response.status !== 200) return page;
  return browser.submit(page, CONFIRM_EMAIL_PATH);
}

/** A JSON request from the app's own page (same origin), with the browser's cookies. */
export function postJson(browser: TestBrowser, origin: string, path: string, body?: unknown): Promise<Visit> {
  return browser.visit(`${origin}${path}`, {
    method: "POST",
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      origin,
      "sec-fetch-site": "same-origin",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** GET /api/auth/user: the walker as JSON, or the status when there is none. */
export async function whoIs(browser: TestBrowser, origin: string) {
  const visit = await browser.visit(`${origin}/api/auth/user`);
  return {
    status: visit.response.status,
    user: visit.response.status === 200 ? (JSON.parse(visit.body) as Record<string, unknown>) : null,
  };
}

/** Resets every throttle count (sign-in, resets, confirmation mails share the table). */
export async function clearThrottles(server: RunningServer): Promise<void> {
  await server.app.database.db.deleteFrom("sign_in_failures").execute();
}

/** A walker who signed up through the built-in provider, signed in in `owner`; their sign-up mail is in. */
export async function walkerWithAccount(
  env: AccountServer,
): Promise<{ walker: NewWalker; owner: TestBrowser }> {
  const walker = newWalker();
  const owner = new TestBrowser();
  await signUp(owner, env.server.origin, walker);
  await nthMailTo(env.smtp, walker.email);
  return { walker, owner };
}

/** "Forgot your password?" for `email`, asked from a browser of its own. */
export async function askForReset(origin: string, email: string): Promise<void> {
  const browser = new TestBrowser();
  const form = await browser.visit(`${origin}${FORGOT_PASSWORD_PATH}`);
  await browser.submit(form, FORGOT_PASSWORD_PATH, { email });
}

/**
 * The owner's two ways to a new password: changed from their signed-in browser, or reset through the
 * mailed link (the account's second mail, after the sign-up's).
 */
export const NEW_PASSWORD_BY = {
  "changes the password": async (env: AccountServer, owner: TestBrowser, walker: NewWalker) => {
    const changed = await postJson(owner, env.server.origin, ACCOUNT_PASSWORD_PATH, {
      currentPassword: walker.password,
      newPassword: "a-fresh-walking-phrase",
    });
    if (changed.response.status !== 200) throw new Error(`password not changed: ${changed.body}`);
  },
  "resets the password": async (env: AccountServer, _owner: TestBrowser, walker: NewWalker) => {
    const { origin } = env.server;
    await askForReset(origin, walker.email);
    const link = linkIn(await nthMailTo(env.smtp, walker.email, 2), origin, PASSWORD_RESET_PATH);
    const resetter = new TestBrowser();
    const page = await resetter.visit(link);
    const landed = await resetter.submit(page, PASSWORD_RESET_PATH, { password: "a-fresh-walking-phrase" });
    if (landed.trail.at(-1) !== `${origin}/`)
      throw new Error(`reset did not sign in: ${landed.trail.at(-1)}`);
  },
} as const;
