import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, PLACEHOLDER_POSTAL_ADDRESS } from "../../src/config.js";

describe("operators' configuration", () => {
  it("reads OPERATOR_EMAILS as lower-cased addresses, spaces and repeats dropped", () => {
    const config = loadConfig({ OPERATOR_EMAILS: " Ops@Example.org,second@example.org , ops@example.org," });
    expect(config.operatorEmails).toEqual(["ops@example.org", "second@example.org"]);
    expect(loadConfig({}).operatorEmails).toEqual([]);
  });

  it.each([
    "ops@example.org;second@example.org",
    "ops",
    "ops@example.org, not an email",
    "<ops@example.org>",
  ])("stops at boot on OPERATOR_EMAILS=%s, naming the variable and the bad address", (value) => {
    expect(() => loadConfig({ OPERATOR_EMAILS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ OPERATOR_EMAILS: value })).toThrow(
      /^OPERATOR_EMAILS: must be email addresses separated by commas, got "/,
    );
  });

  it("reads POSTAL_ENTRY_ADDRESS with \\n as line breaks", () => {
    const config = loadConfig({ POSTAL_ENTRY_ADDRESS: "Charity Steps Draw\\n PO Box 12 \\nLondon N1 1AA" });
    expect(config.postalEntryAddress).toBe("Charity Steps Draw\nPO Box 12\nLondon N1 1AA");
  });

  it("shows a plainly marked placeholder address in development only", () => {
    expect(loadConfig({}).postalEntryAddress).toBe(PLACEHOLDER_POSTAL_ADDRESS);
    expect(PLACEHOLDER_POSTAL_ADDRESS).toMatch(/^PLACEHOLDER/);
    expect(loadConfig({ NODE_ENV: "production" }).postalEntryAddress).toBeNull();
  });

  it("refuses an address longer than 500 characters", () => {
    expect(() => loadConfig({ POSTAL_ENTRY_ADDRESS: "A".repeat(501) })).toThrow(/^POSTAL_ENTRY_ADDRESS: /);
  });
});
