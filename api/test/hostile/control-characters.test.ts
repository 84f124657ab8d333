import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTROL_CHARACTERS_FORM_MESSAGE } from "../../src/auth/provider/validation.js";
import {
  createSignedInWalker,
  dialects,
  escaped,
  newWalker,
  type RunningServer,
  startTestServer,
  TestBrowser,
} from "../helper.js";
import { TEST_TODAY, useTestClock } from "../support/clock.js";
import { manualForm, multipartBody, photo } from "../support/steps.js";
import { databaseSnapshot } from "./generators.js";

useTestClock();

/**
 * A NUL, an escape or another control character in any text field is refused with a 400 that says
 * so, on both databases alike (PostgreSQL cannot store NUL in text), and nothing is stored.
 */
describe.each(dialects)("control characters in text fields (%s)", (dialect) => {
  let server: RunningServer;
  let walker: Awaited<ReturnType<typeof createSignedInWalker>>;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    walker = await createSignedInWalker(server.app, "Control");
  });
  afterAll(async () => server.close());

  const snapshot = () => databaseSnapshot(server.app.database.db);
  const json = (url: string, payload: unknown) =>
    server.app.inject({
      method: "POST",
      url,
      headers: { cookie: walker.cookie, "content-type": "application/json", "sec-fetch-site": "same-origin" },
      payload: JSON.stringify(payload),
    });
  const manualEntry = async (note: string) => {
    const form = multipartBody(
      manualForm({ steps: "1200", date: TEST_TODAY, note }, { bytes: await photo("png") }),
    );
    return server.app.inject({
      method: "POST",
      url: "/api/steps/add-manual-verified",
      headers: {
        cookie: walker.cookie,
        "content-type": form.contentType,
        "idempotency-key": randomUUID(),
        "sec-fetch-site": "same-origin",
      },
      payload: form.body,
    });
  };

  it("takes control characters out of a group's name and description (line breaks stay in the description), and refuses them in a join code", async () => {
    const group = await json("/api/groups", {
      name: "Night\u0000 \u001b[31mwalkers\u007f\u0085",
      description: "Dusk\u0000\r\nto dawn\tsharp",
    });
    expect(group.statusCode).toBe(201);
    expect(group.json()).toMatchObject({ name: "Night [31mwalkers", description: "Dusk\r\nto dawn\tsharp" });
    const before = await snapshot();
    // NUL, escape, DEL and a C1 control (NEL) alike.
    for (const control of ["\u0000", "\u001b", "\u007f", "\u0085"]) {
      const join = await json("/api/groups/join", { joinCode: `ABC${control}DEF` });
      expect(join.statusCode).toBe(400);
      expect(join.json().message).toBe("joinCode must not contain control characters.");
    }
    expect(await snapshot()).toBe(before);
  });

  it("refuses a name written backwards by a bidirectional override, and a name of invisible characters alone", async () => {
    const before = await snapshot();
    const override = await json("/api/groups", { name: "\u202EAdmin" });
    expect(override.statusCode).toBe(400);
    expect(override.json().message).toBe("name must not contain control characters.");
    // Half of an emoji (an unpaired surrogate) neither database stores as sent; a whole one is a name.
    for (const broken of ["Walkers \uD83D", "\uDEB6 walkers"]) {
      const refused = await json("/api/groups", { name: broken });
      expect(refused.statusCode, JSON.stringify(broken)).toBe(400);
      expect(refused.json().message).toBe("name must not contain control characters.");
    }
    for (const name of ["\u200B", "\u200B\u2060 "]) {
      const invisible = await json("/api/groups", { name });
      expect(invisible.statusCode).toBe(400);
      expect(invisible.json().message).toBe("name must not be empty.");
      const key = await json("/api/health/keys", { name });
      expect(key.statusCode).toBe(400);
    }
    expect(await snapshot()).toBe(before);
  });

  it("refuses NUL, escape, DEL and C1 in a manual entry's note, and takes a note on two lines with a tab", async () => {
    const before = await snapshot();
    for (const control of ["\u0000", "\u001b", "\u007f", "\u0085"]) {
      const refused = await manualEntry(`Walked${control} to work`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe("note must not contain control characters.");
    }
    expect(await snapshot()).toBe(before);
    const accepted = await manualEntry("Walked to work\nand back\t(twice)");
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().entry.note).toBe("Walked to work\nand back\t(twice)");
  });

  /** The sign-in page, or (with `signup`) the sign-up page, of a new interaction. */
  const formPage = async (browser: TestBrowser, signup: boolean) => {
    const signInPage = await browser.visit(`${server.origin}/api/login`);
    if (!signup) return signInPage;
    const link = /href="(\/auth\/interaction\/[^"]+\/signup)"/.exec(signInPage.body)?.[1] ?? "";
    return browser.visit(`${server.origin}${link}`);
  };

  it("answers a sign-up with NUL in a name by the form again, with a sentence, and makes no account", async () => {
    const browser = new TestBrowser();
    const form = await formPage(browser, true);
    const before = await snapshot();
    const page = await browser.submit(form, "/signup", { ...newWalker(), firstName: "Ada\u0000" });
    expect(page.response.status).toBe(400);
    expect(page.response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.body).toContain(escaped(CONTROL_CHARACTERS_FORM_MESSAGE));
    expect(page.body).toContain('action="/auth/interaction/');
    expect(await snapshot()).toBe(before);
  });

  it("answers a sign-up whose last name is a zero-width space, or whose first name holds an override, by the form again", async () => {
    for (const names of [{ lastName: "\u200B" }, { firstName: "\u202EAdmin" }]) {
      const browser = new TestBrowser();
      const form = await formPage(browser, true);
      const before = await snapshot();
      const page = await browser.submit(form, "/signup", { ...newWalker(), ...names });
      expect(page.response.status).toBe(400);
      expect(page.body).toContain(
        escaped(names.lastName ? "Enter your first name and last name." : CONTROL_CHARACTERS_FORM_MESSAGE),
      );
      expect(await snapshot()).toBe(before);
    }
  });

  it("answers a sign-up whose email holds a zero-width space, a look-alike of someone else's, by the form again", async () => {
    const browser = new TestBrowser();
    const form = await formPage(browser, true);
    const before = await snapshot();
    const page = await browser.submit(form, "/signup", { ...newWalker(), email: "ada@exa\u200Bmple.org" });
    expect(page.response.status).toBe(400);
    expect(page.body).toContain(escaped("Enter a valid email address, like name@example.com."));
    expect(await snapshot()).toBe(before);
  });

  it("answers a sign-in with NUL in the email by the form again, with a sentence, before counting it", async () => {
    const browser = new TestBrowser();
    const form = await formPage(browser, false);
    const before = await snapshot();
    const page = await browser.submit(form, "/login", {
      email: "ada\u0000@example.org",
      password: "long-walks-2026",
    });
    expect(page.response.status).toBe(400);
    expect(page.body).toContain(escaped(CONTROL_CHARACTERS_FORM_MESSAGE));
    expect(await snapshot()).toBe(before);
  });
});
