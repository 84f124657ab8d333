import { simpleParser } from "mailparser";
import type { Page } from "playwright-core";
import { SMTPServer } from "smtp-server";

/** A mail as the walker reads it. */
export interface ReceivedMail {
  /** The addresses it was sent to. */
  to: string[];
  subject: string;
  text: string;
}

/** The mail an app server has sent. */
export interface Mailbox {
  /** The first mail to `address` whose subject is `subject`, once it has arrived. */
  mail(address: string, subject: string): Promise<ReceivedMail>;
  /** The mails to `address` whose subject is `subject`, oldest first, once `count` have arrived. */
  all(address: string, subject: string, count: number): Promise<ReceivedMail[]>;
}

export interface MailServer extends Mailbox {
  /** SMTP_URL for the app server. */
  url: string;
  /** Every mail received so far, oldest first. */
  received(): ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server in this process: an app server's mail arrives here, parsed. */
export async function startMailServer(): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            to: [mail.to ?? []].flat().flatMap((to) => to.value.map((entry) => entry.address ?? "")),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => [...received],
    ...mailboxOf(async () => received),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A mailbox over `list`, which answers every mail received so far. */
export function mailboxOf(list: () => Promise<ReceivedMail[]>): Mailbox {
  return {
    async mail(address, subject) {
      const [first] = await this.all(address, subject, 1);
      if (!first) throw new Error(`no mail "${subject}" to ${address}`);
      return first;
    },
    async all(address, subject, count) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const found = (await list()).filter((mail) => mail.subject === subject && mail.to.includes(address));
        if (found.length >= count) return found;
        if (Date.now() > deadline)
          throw new Error(`${found.length} of ${count} mails "${subject}" to ${address}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no link to ${prefix} in "${mail.subject}"`);
  return link;
}

/**
 * Follows a mailed confirmation link as a walker does: opens it (which changes nothing), then
 * presses its page's one button ("Confirm my email", or "Use this email" for a new address).
 */
export async function followConfirmation(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole("button", { name: /^(Confirm my email|Use this email)$/ }).click();
}
