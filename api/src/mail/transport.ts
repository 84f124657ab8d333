import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Transporter } from "nodemailer";
import type { MailOutboxRow } from "../repositories/mail-outbox.js";

/** Where the queue hands a message: an SMTP server, or files when none is configured. */
export interface MailTransport {
  readonly kind: "smtp" | "file";
  /** Resolves once the message is accepted (by the server, or written); rejects otherwise. */
  deliver(message: MailOutboxRow): Promise<void>;
  close(): void;
}

export interface TransportOptions {
  smtpUrl: string | null;
  mailFrom: string;
  dataDir: string;
  log: FastifyBaseLogger;
  /** The longest one SMTP send may take before it is abandoned (and retried later). */
  sendTimeoutMs: number;
}

/**
 * nodemailer's SMTP transport from SMTP_URL; without one, its stream transport renders each message
 * (RFC 822, CRLF lines) into `DATA_DIR/mail/`, so that nothing is lost in development.
 */
export function createMailTransport(options: TransportOptions): MailTransport {
  return options.smtpUrl ? smtpTransport(options.smtpUrl, options) : fileTransport(options);
}

function smtpTransport(url: string, { mailFrom, sendTimeoutMs }: TransportOptions): MailTransport {
  const transporter = lazily((nodemailer) =>
    nodemailer.createTransport({
      url,
      // nodemailer waits minutes by default; a send must end well within the queue's lease.
      connectionTimeout: Math.min(30_000, sendTimeoutMs),
      greetingTimeout: Math.min(30_000, sendTimeoutMs),
      socketTimeout: sendTimeoutMs,
    }),
  );
  return {
    kind: "smtp",
    async deliver(message) {
      await (await transporter.get()).sendMail({
        ...envelope(message, mailFrom),
        // Cancelling does not prove the server had not accepted the message already: at worst the
        // retry sends it twice, with the same Message-ID.
        signal: AbortSignal.timeout(sendTimeoutMs),
      });
    },
    close: () => transporter.close(),
  };
}

/**
 * A nodemailer transporter made at the first message: the library (about 9 MB resident) is loaded
 * only by a process that sends mail.
 */
function lazily(make: (nodemailer: typeof import("nodemailer")["default"]) => Transporter) {
  let made: Promise<Transporter> | undefined;
  return {
    get(): Promise<Transporter> {
      made ??= import("nodemailer").then((module) => make(module.default));
      return made;
    },
    close(): void {
      void made?.then((transporter) => transporter.close());
    },
  };
}

function fileTransport({ mailFrom, dataDir, log }: TransportOptions): MailTransport {
  const transporter = lazily((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" }),
  );
  const folder = join(dataDir, "mail");
  return {
    kind: "file",
    async deliver(message) {
      const info = await (await transporter.get()).sendMail(envelope(message, mailFrom));
      await mkdir(folder, { recursive: true });
      const stamp = new Date(message.created_at).toISOString().replaceAll(":", "-");
      const file = join(folder, `${stamp}-${message.id}.eml`);
      await writeFile(file, info.message as Buffer);
      log.info(
        { mailId: message.id, to: message.to, subject: message.subject, file },
        "mail written to a file",
      );
    },
    close: () => transporter.close(),
  };
}

/** The message's headers and bodies; its id makes the Message-ID, the same on every attempt. */
function envelope(message: MailOutboxRow, from: string) {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html === null ? {} : { html: message.html }),
    // RFC 8058: the mail client's one-click unsubscribe POSTs "List-Unsubscribe=One-Click" there.
    ...(message.unsubscribe_url === null
      ? {}
      : {
          headers: {
            "List-Unsubscribe": `<${message.unsubscribe_url}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
        }),
    messageId: `<${message.id}@${senderDomain(from)}>`,
  };
}

function senderDomain(from: string): string {
  return /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
}

/**
 * True when retrying cannot help: the server refused the message or its recipient for good (SMTP
 * 5xx). An authentication failure (530, 534, 535) is a configuration problem an operator can fix,
 * so it is retried like a connection failure.
 */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600 && ![530, 534, 535].includes(code);
}
