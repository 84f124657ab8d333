import {
  EMAIL_UNSUBSCRIBE_PATH,
  EmailUnsubscribeQuery,
  ErrorResponse,
  NOTIFICATION_KIND_NAMES,
  type NotificationKind,
  sentenceCase,
  UNSUBSCRIBE_LINK_NOT_VALID_MESSAGE,
  WEEKLY_SUMMARY_CADENCE,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { Type } from "typebox";
import { escapeHtml } from "../../../auth/provider/pages.js";
import { BadRequestError } from "../../../errors.js";

/** A one-click body is a few dozen bytes ("List-Unsubscribe=One-Click"). */
const FORM_BODY_LIMIT = 1_024;

/** A page of this origin, in the app's colours light and dark, with no script. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} · Charity Steps</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
:root{color-scheme:light dark;--page:#f8fafc;--surface:#fff;--ink:#0f172a;--muted:#64748b;--brand:#0f766e;--on-brand:#fff}
@media (prefers-color-scheme:dark){:root{--page:#0b1120;--surface:#111827;--ink:#e2e8f0;--muted:#94a3b8;--brand:#2dd4bf;--on-brand:#042f2e}}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--page);color:var(--ink);font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{box-sizing:border-box;background:var(--surface);border-radius:1rem;box-shadow:0 4px 24px rgb(0 0 0 / 8%);padding:2rem;max-width:24rem;width:calc(100% - 3rem)}
h1{margin:0 0 .5rem;font-size:1.5rem}
p{margin:0 0 1.25rem;line-height:1.5;color:var(--muted)}
button,a.button{display:block;box-sizing:border-box;width:100%;padding:.75rem 1rem;border:0;border-radius:.75rem;background:var(--brand);color:var(--on-brand);font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
a{color:var(--brand);font-weight:600}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

const OneClickBody = Type.Object({ "List-Unsubscribe": Type.Optional(Type.String({ maxLength: 64 })) });

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(body);

/** What each kind of mail is, in the pages' words. */
const mailOf = (kind: NotificationKind) =>
  kind === "weekly_summary" ? "the weekly summary" : `emails for “${NOTIFICATION_KIND_NAMES[kind]}”`;

/**
 * One kind of notification mail, stopped from the mail without signing in. A mail client's
 * one-click unsubscribe POSTs `List-Unsubscribe=One-Click` to the link (RFC 8058); a person who
 * opens the link is asked first, by a button that posts the same, so that a link scanner fetching
 * the address stops nothing. The link is signed for its walker and kind; a link that is not
 * answers 400 (a page for a browser that opens it, JSON for any other caller). The kind still
 * shows in the app, and by push if the walker has that on.
 */
export const emailUnsubscribeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const { unsubscribeLinks, notifier } = app.services;
  const htmlAnswer = { 200: Type.String({ description: "An HTML page" }), 400: ErrorResponse };

  app.get(
    EMAIL_UNSUBSCRIBE_PATH,
    // A link cut short by a mail client fails the address's own checks: it is answered here, as a
    // page for the person who opened it.
    { schema: { querystring: EmailUnsubscribeQuery, response: htmlAnswer }, attachValidation: true },
    async (request, reply) => {
      const { u, kind, t } = request.query;
      // The answer to a spoiled link is a page or JSON by what the caller accepts.
      reply.header("vary", "Accept");
      if (request.validationError || !(await unsubscribeLinks.verify(u, kind, t))) {
        // A browser is shown a page that says what to do; any other caller, the API's JSON error.
        if (!(request.headers.accept ?? "").includes("text/html")) {
          throw new BadRequestError(UNSUBSCRIBE_LINK_NOT_VALID_MESSAGE);
        }
        return html(
          reply,
          400,
          page(
            "This link does not work",
            `<h1>This link does not work</h1>
<p>${escapeHtml(UNSUBSCRIBE_LINK_NOT_VALID_MESSAGE)}</p>
<a class="button" href="/account">Open your Account page</a>`,
          ),
        );
      }
      const what = mailOf(kind);
      const why =
        kind === "weekly_summary"
          ? `We email you a look back on your week ${WEEKLY_SUMMARY_CADENCE}.`
          : `We email you when this happens: ${NOTIFICATION_KIND_NAMES[kind].toLowerCase()}.`;
      return html(
        reply,
        200,
        page(
          `Stop ${what}?`,
          `<h1>Stop ${escapeHtml(what)}?</h1>
<p>${escapeHtml(why)} It still shows in the app either way, and your steps, streaks and badges stay.</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Stop these emails</button>
</form>`,
        ),
      );
    },
  );

  app.post(
    EMAIL_UNSUBSCRIBE_PATH,
    {
      bodyLimit: FORM_BODY_LIMIT,
      // RFC 8058's body ("List-Unsubscribe=One-Click") says nothing the link does not: it may be
      // absent (a person's button sends it, a script may not).
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: { querystring: EmailUnsubscribeQuery, body: OneClickBody, response: htmlAnswer },
      attachValidation: true,
    },
    async (request, reply) => {
      const refused = request.validationError;
      // A body that is not RFC 8058's is told what is wrong with it, as any call's would be.
      if (refused && refused.validationContext !== "querystring") throw refused;
      const { u, kind, t } = request.query;
      // A link spoiled on its way (cut short, a part missing) is a link that is not valid, as the
      // GET says: the API's JSON error, whose message a browser shows as it is.
      if (refused || !(await unsubscribeLinks.verify(u, kind, t))) {
        throw new BadRequestError(UNSUBSCRIBE_LINK_NOT_VALID_MESSAGE);
      }
      // A walker who has since deleted their account gets no mail to stop.
      if (await app.repositories.users.findById(u)) {
        await notifier.changePreferences(u, { kinds: { [kind]: { email: false } } });
      }
      const what = mailOf(kind);
      const stopped = `${sentenceCase(what)} stopped`;
      return html(
        reply,
        200,
        page(
          stopped,
          `<h1>${escapeHtml(stopped)}</h1>
<p>You will not get ${escapeHtml(what)} any more. You can turn this back on in the Notifications section of your Account page.</p>
<a class="button" href="/account">Open Charity Steps</a>`,
        ),
      );
    },
  );
};
