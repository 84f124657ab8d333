import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export const SMTP_USER = "mailer";
export const SMTP_PASSWORD = "s3cret-pass";

export interface TestSmtpServer {
  port: number;
  /** SMTP_URL for the app, with the server's credentials. */
  url: string;
  /** Every message accepted, parsed, in order of arrival. */
  received: ParsedMail[];
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** Listen on this port (a port a stopped server used, to bring it back). */
  port?: number;
  /** Refuses a recipient with this SMTP reply code (5xx: for good). */
  refuseRecipient?: (address: string) => number | undefined;
  /** Holds each message this long before accepting it, so that senders overlap. */
  delayMs?: number;
}

/**
 * A real SMTP server in the test process (smtp-server), that asks for a password and keeps what
 * arrives, parsed by mailparser. Plain SMTP with no STARTTLS: the tests are about the queue.
 */
export async function startSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: SMTP_USER });
      else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const code = options.refuseRecipient?.(address.address);
      if (code === undefined) callback();
      else
        callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: code }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
          received.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      const address = server.server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
  return {
    port,
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Resolves once `done()` holds, checking every 20 ms, or fails after `timeoutMs`. */
export async function waitFor(done: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Log lines as pino writes them, for a Fastify logger's `stream`. */
export function logCapture() {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  };
}

/** A header of a received mail as a mail client reads it (folded lines joined). */
export function mailHeader(mail: ParsedMail | undefined, name: string): string | undefined {
  return mail?.headerLines
    .find((line) => line.key === name)
    ?.line.replace(/\r\n\s*/g, " ")
    .slice(name.length + 1)
    .trim();
}
