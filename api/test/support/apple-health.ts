import { randomBytes } from "node:crypto";
import { APPLE_HEALTH_IMPORT_PATH, HEALTH_KEYS_PATH } from "@charity-steps/shared-types";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { createSignedInWalker } from "../helper.js";

type Answer = Promise<LightMyRequestResponse>;

/** A made-up network address, so that each test's bad-key calls are counted apart from the others'. */
export function someAddress(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

/** A walker with their session (the Account page's calls) and their Shortcut's import call. */
export async function healthWalker(app: FastifyInstance, name = "Ana") {
  const walker = await createSignedInWalker(app, name);
  const { cookie } = walker;
  const json = (payload: unknown) => ({
    "content-type": "application/json",
    payload: JSON.stringify(payload),
  });
  const account = {
    createKey: (keyName: string, extra: Record<string, string> = {}): Answer => {
      const { payload, ...type } = json({ name: keyName });
      return app.inject({
        method: "POST",
        url: HEALTH_KEYS_PATH,
        headers: { cookie, "sec-fetch-site": "same-origin", ...type, ...extra },
        payload,
      });
    },
    listKeys: (): Answer => app.inject({ method: "GET", url: HEALTH_KEYS_PATH, headers: { cookie } }),
    revokeKey: (id: string): Answer =>
      app.inject({
        method: "DELETE",
        url: `${HEALTH_KEYS_PATH}/${id}`,
        headers: { cookie, "sec-fetch-site": "same-origin" },
      }),
    dashboard: (): Answer => app.inject({ method: "GET", url: "/api/dashboard/stats", headers: { cookie } }),
    sync: (steps: number, date: string): Answer =>
      app.inject({
        method: "POST",
        url: "/api/steps/sync",
        headers: { cookie, "content-type": "application/json" },
        payload: JSON.stringify({ steps, date, source: "device_motion" }),
      }),
  };
  /** A key of the walker's, made through the route. */
  const newKey = async (keyName = "Ana's iPhone"): Promise<{ id: string; key: string }> => {
    const response = await account.createKey(keyName);
    if (response.statusCode !== 201) throw new Error(`key not created: ${response.body}`);
    return response.json();
  };
  return { ...walker, account, newKey };
}

/** What a Shortcut sends: JSON with the key, no Origin, no Sec-Fetch-Site, no cookie. */
export function importCall(
  app: FastifyInstance,
  body: unknown,
  {
    key,
    headers = {},
    remoteAddress,
  }: { key?: string; headers?: Record<string, string>; remoteAddress?: string },
): Answer {
  return app.inject({
    method: "POST",
    url: APPLE_HEALTH_IMPORT_PATH,
    headers: {
      "content-type": "application/json",
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...headers,
    },
    payload: typeof body === "string" ? body : JSON.stringify(body),
    // Each call from an address of its own unless told: bad-key calls are counted per address.
    remoteAddress: remoteAddress ?? someAddress(),
  });
}
