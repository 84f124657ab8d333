/** One message to one walker, as the rest of the API hands it to `app.services.mail.send`. */
export interface MailMessage {
  /** One recipient's address. */
  to: string;
  /** At most `MAIL_LIMITS.subjectChars` characters, on one line. */
  subject: string;
  text: string;
  html?: string;
  /** A link worth logging in development, where mail is kept as files instead of being sent. */
  link?: string;
  /** Where its one-click unsubscribe posts (RFC 8058): for mail a walker can stop, such as the week's summary. */
  unsubscribeUrl?: string;
  /** The walker it concerns, so that their mail is erased with their account. */
  userId?: string | null;
}

/** The API's mail: what routes call (on the app as `app.services.mail`). */
export interface Mailer {
  /** Queues the message in the database; resolves once it is stored, before it is sent. */
  send(message: MailMessage): Promise<void>;
  /** Erases every queued or kept message to or about the walker (account deletion). */
  deleteForUser(userId: string): Promise<void>;
}

/** A message's bounds: what a queued row may hold. */
export const MAIL_LIMITS = {
  subjectChars: 200,
  /** Each of the text and HTML bodies, in UTF-8 bytes. */
  bodyBytes: 100_000,
  addressChars: 254,
} as const;

/** A bare address: one recipient, no display name, no list. */
const ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/;

export function isMailAddress(value: string): boolean {
  return value.length <= MAIL_LIMITS.addressChars && ADDRESS.test(value);
}

/** Refuses a message the queue must not hold: a caller's mistake, so it throws. */
export function checkMessage(message: MailMessage): void {
  if (!isMailAddress(message.to)) throw new RangeError("mail: `to` must be one plain address");
  if (message.subject.trim() === "") throw new RangeError("mail: the subject is empty");
  if (message.subject.length > MAIL_LIMITS.subjectChars) {
    throw new RangeError(`mail: the subject is longer than ${MAIL_LIMITS.subjectChars} characters`);
  }
  if (/[\r\n]/.test(message.subject)) throw new RangeError("mail: the subject spans several lines");
  for (const [name, body] of [
    ["text", message.text],
    ["html", message.html ?? ""],
  ] as const) {
    if (Buffer.byteLength(body, "utf8") > MAIL_LIMITS.bodyBytes) {
      throw new RangeError(`mail: the ${name} body is larger than ${MAIL_LIMITS.bodyBytes} bytes`);
    }
  }
}

export interface MailLayout {
  /** "Hello Ada," */
  greeting: string;
  /** Plain sentences; a line break inside one is kept. */
  paragraphs: string[];
  /** The one thing to do, as a button in HTML and a bare link in text. Must be http(s). */
  action?: { label: string; url: string };
  /** Replaces the default sign-off. */
  closing?: string;
  /** Why the walker gets this mail and how to stop it, in small print after the sign-off. */
  unsubscribe?: { reason: string; url: string };
}

const DEFAULT_CLOSING = "The Charity Steps team";

/**
 * Every mail the API sends, in one voice and one shape: the plain text, and the same words as
 * simple HTML with every value escaped and no external image or stylesheet (mail clients block
 * them, and they would tell a sender when the mail is read).
 */
export function mailLayout({
  greeting,
  paragraphs,
  action,
  closing = DEFAULT_CLOSING,
  unsubscribe,
}: MailLayout): {
  text: string;
  html: string;
} {
  if (action && !/^https?:\/\//i.test(action.url)) {
    throw new RangeError("mail: an action's URL must be http(s)");
  }
  const textBlocks = [greeting, ...paragraphs];
  if (action) textBlocks.push(`${action.label}:\n${action.url}`);
  textBlocks.push(closing);
  if (unsubscribe) textBlocks.push(`${unsubscribe.reason} To stop these emails:\n${unsubscribe.url}`);
  const text = `${textBlocks.join("\n\n")}\n`;

  const paragraph = (words: string, style = "") =>
    `<p style="margin:0 0 16px;${style}">${escapeHtml(words).replaceAll("\n", "<br>")}</p>`;
  const htmlBlocks = [paragraph(greeting), ...paragraphs.map((words) => paragraph(words))];
  if (action) {
    const url = escapeHtml(action.url);
    htmlBlocks.push(
      `<p style="margin:24px 0;"><a href="${url}" style="background:#1f6f43;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold;display:inline-block;">${escapeHtml(action.label)}</a></p>`,
      paragraph(
        `If the button does not work, copy this link into your browser:\n${action.url}`,
        "font-size:13px;color:#555555;word-break:break-all;",
      ),
    );
  }
  htmlBlocks.push(paragraph(closing));
  if (unsubscribe) {
    htmlBlocks.push(
      `<p style="margin:24px 0 0;font-size:13px;color:#555555;">${escapeHtml(unsubscribe.reason)} <a href="${escapeHtml(unsubscribe.url)}" style="color:#555555;">Stop these emails</a>.</p>`,
    );
  }
  const html = [
    "<!doctype html>",
    '<html lang="en" dir="ltr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;">',
    `<div style="max-width:560px;margin:0 auto;">${htmlBlocks.join("")}</div>`,
    "</body></html>",
  ].join("\n");
  return { text, html };
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
