import { randomUUID } from "node:crypto";
import { CHARITY_NAMES } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { TEST_MONTH, useTestClock } from "../../../support/clock.js";
import { stepsClient } from "../../../support/steps.js";

useTestClock();

describe.each(dialects)("charity selection, revenue and subscription status (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp.close());

  const newWalker = async () => {
    const walker = await createSignedInWalker(testApp.app);
    return { ...walker, api: stepsClient(testApp.app, walker.cookie) };
  };

  it("has no charity until the walker selects one, then remembers it for every screen", async () => {
    const { api, user } = await newWalker();
    expect((await api.get("/api/charity/selection")).json()).toEqual({ charityName: null });
    expect((await api.get("/api/charity/current")).json()).toEqual({ charity: null });

    const selected = await api.post("/api/charity/select", { charityName: "Crohn's & Colitis UK" });
    expect(selected.statusCode).toBe(200);
    expect(selected.json()).toEqual({ charityName: "Crohn's & Colitis UK" });
    expect((await api.get("/api/charity/selection")).json()).toEqual({ charityName: "Crohn's & Colitis UK" });
    expect((await api.get("/api/charity/current")).json().charity).toMatchObject({
      name: "Crohn's & Colitis UK",
      focus: expect.any(String),
    });
    expect((await api.get("/api/dashboard/stats")).json().charityName).toBe("Crohn's & Colitis UK");
    const row = await testApp.app.database.db
      .selectFrom("users")
      .select("charity_name")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.charity_name).toBe("Crohn's & Colitis UK");

    await api.post("/api/charity/select", { charityName: "British Heart Foundation" });
    expect((await api.get("/api/charity/selection")).json()).toEqual({
      charityName: "British Heart Foundation",
    });
  });

  it("accepts only the three charities, keeping the earlier choice on a refusal", async () => {
    const { api } = await newWalker();
    await api.post("/api/charity/select", { charityName: "Cancer Research UK" });
    for (const body of [{ charityName: "Oxfam" }, { charityName: "" }, {}, { charityName: 3 }]) {
      const response = await api.post("/api/charity/select", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof response.json().message).toBe("string");
    }
    expect((await api.post("/api/charity/select", { charityName: "Oxfam" })).json().message).toBe(
      `charityName must be one of: ${CHARITY_NAMES.join(", ")}.`,
    );
    expect((await api.get("/api/charity/selection")).json()).toEqual({ charityName: "Cancer Research UK" });
  });

  it("computes the month's prize pool from subscription revenue: £0.00 in the free beta", async () => {
    const { api, user } = await newWalker();
    const month = TEST_MONTH;
    expect((await api.get("/api/revenue/current")).json()).toEqual({
      month,
      totalRevenue: 0,
      charityShare: 0,
      prizePool: 0,
      operatingShare: 0,
    });
    const { db } = testApp.app.database;
    await db
      .insertInto("subscription_payments")
      .values([
        { id: randomUUID(), user_id: user.id, month, amount_pence: 599, created_at: Date.now() },
        { id: randomUUID(), user_id: user.id, month: "2020-01", amount_pence: 599, created_at: Date.now() },
      ])
      .execute();
    expect((await api.get("/api/revenue/current")).json()).toEqual({
      month,
      totalRevenue: 5.99,
      charityShare: 2.99,
      prizePool: 1.8,
      operatingShare: 1.2,
    });
    await db.deleteFrom("subscription_payments").execute();
  });

  it("reports the free beta and the future plan's price, trial and split", async () => {
    const { api } = await newWalker();
    expect((await api.get("/api/subscription/status")).json()).toEqual({
      status: "beta",
      free: true,
      futurePlan: {
        monthlyPricePence: 599,
        freeTrialDays: 7,
        shares: [
          { share: "charity", percent: 50, pence: 299 },
          { share: "prizes", percent: 30, pence: 180 },
          { share: "operating", percent: 20, pence: 120 },
        ],
      },
    });
  });

  it("answers every one of these calls with 401 when signed out", async () => {
    for (const [method, url] of [
      ["GET", "/api/charity/selection"],
      ["GET", "/api/charity/current"],
      ["POST", "/api/charity/select"],
      ["GET", "/api/revenue/current"],
      ["GET", "/api/subscription/status"],
    ] as const) {
      const response = await testApp.app.inject({
        method,
        url,
        ...(method === "POST"
          ? {
              headers: { "content-type": "application/json" },
              payload: '{"charityName":"Cancer Research UK"}',
            }
          : {}),
      });
      expect(response.statusCode, url).toBe(401);
    }
  });
});
