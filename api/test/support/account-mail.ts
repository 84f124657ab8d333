import type { ParsedMail } from "mailparser";
import { CONFIRM_EMAIL_PATH } from "../../src/auth/provider/account-links.js";
import {
  type RunningServer,
  startTestServer,
  type TestBrowser,
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
