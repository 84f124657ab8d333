/** Where a queued message stands: waiting (or being retried), delivered, or given up on. */
export type MailStatus = "pending" | "sent" | "failed";

/** One outgoing message, queued in the database until a worker of any API process delivers it. */
export interface MailOutboxTable {
  id: string;
  /** One recipient's address. */
  to: string;
  subject: string;
  /** The plain-text body; emptied once the message is sent (it may hold a single-use link). */
  text: string;
  html: string | null;
  /** Where the mail's one-click unsubscribe posts (RFC 8058); null for mail a walker cannot stop. */
  unsubscribe_url: string | null;
  /** The walker the message concerns, so that their mail goes with their account; null for none. */
  user_id: string | null;
  status: MailStatus;
  /** Sends tried so far, the one in progress included. */
  attempts: number;
  /** When a pending message is next due. */
  next_attempt_at: number;
  /** Until when the worker that claimed the message holds it; null when nobody does. */
  claimed_until: number | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}
