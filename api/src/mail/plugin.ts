import fp from "fastify-plugin";
import { MailQueue, type MailQueueOptions } from "./queue.js";
import { createMailTransport } from "./transport.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The API's mail: `app.mail.send(message)` queues a message in the database. */
    mail: MailQueue;
  }
}

/**
 * The mail queue on the app as `app.mail`, its worker running from `ready` until `close` (queued
 * messages wait in the database for the next start).
 */
export const mailPlugin = fp<{ queue?: Partial<MailQueueOptions> }>(
  async (app, options) => {
    const { smtpUrl, mailFrom, dataDir } = app.config;
    const queue = new MailQueue(
      app.repositories.mailOutbox,
      createMailTransport({ smtpUrl, mailFrom, dataDir, log: app.log, sendTimeoutMs: 60_000 }),
      app.log,
      options.queue,
    );
    app.decorate("mail", queue);
    app.addHook("onReady", async () => queue.start());
    app.addHook("onClose", async () => queue.stop());
  },
  { name: "mail", dependencies: ["config", "database"] },
);
