import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type MailServer = Awaited<ReturnType<typeof startMailServer>>;

/** A real SMTP server in the test process: the app's mail arrives here, parsed. */
export async function startMailServer() {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
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
    /** The first mail to `address` whose subject is `subject`, once it has arrived. */
    async mail(address: string, subject: string): Promise<ParsedMail> {
      const [first] = await this.all(address, subject, 1);
      if (!first) throw new Error(`no mail "${subject}" to ${address}`);
      return first;
    },
    /** The mails to `address` whose subject is `subject`, oldest first, once `count` have arrived. */
    async all(address: string, subject: string, count: number): Promise<ParsedMail[]> {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const found = received.filter(
          (mail) =>
            mail.subject === subject &&
            [mail.to ?? []].flat().some((to) => to.value.some((entry) => entry.address === address)),
        );
        if (found.length >= count) return found;
        if (Date.now() > deadline)
          throw new Error(`${found.length} of ${count} mails "${subject}" to ${address}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const link = (mail.text ?? "").split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no link to ${prefix} in "${mail.subject}"`);
  return link;
}
