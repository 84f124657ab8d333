import { describe, expect, it } from "vitest";
import { activeTab } from "../../src/app/active-tab";

describe("the lit bottom tab", () => {
  it("is Dashboard on the home page and on /dashboard", () => {
    expect(activeTab("/")).toBe("dashboard");
    expect(activeTab("/dashboard")).toBe("dashboard");
    expect(activeTab("/dashboard/")).toBe("dashboard");
  });

  it("is Groups on the list and on any group's page", () => {
    expect(activeTab("/groups")).toBe("groups");
    expect(activeTab("/groups/12")).toBe("groups");
    expect(activeTab("/groups/12/members")).toBe("groups");
  });

  it("is Charity, Prizes or Account on their own pages", () => {
    expect(activeTab("/charity")).toBe("charity");
    expect(activeTab("/prize-draw")).toBe("prizes");
    expect(activeTab("/account")).toBe("account");
  });

  it("is none elsewhere, including below pages that have no sub-pages", () => {
    expect(activeTab("/terms")).toBeNull();
    expect(activeTab("/subscribe")).toBeNull();
    expect(activeTab("/nowhere")).toBeNull();
    expect(activeTab("/charity/extra")).toBeNull();
    expect(activeTab("/dashboardx")).toBeNull();
  });
});
