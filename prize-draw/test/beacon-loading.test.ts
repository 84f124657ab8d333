import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** A module hook that prints the name of every module the process asks for. */
const HOOK = `export async function resolve(specifier, context, next) {
  console.log("asked for " + specifier);
  return next(specifier, context);
}`;
const REGISTER = `import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(HOOK)}));`;

/** The modules a fresh Node process asks for by name while it runs `script` (an ES module). */
async function modulesAskedFor(script: string): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    [
      "--import",
      `data:text/javascript,${encodeURIComponent(REGISTER)}`,
      "--conditions=source",
      "--import",
      "tsx",
      "--input-type=module",
      "--eval",
      script,
    ],
    { cwd: packageDir },
  );
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("asked for "))
    .map((line) => line.slice("asked for ".length));
}

describe("drand's client", () => {
  it("is loaded when a round is placed, not with the package (the API imports it at every start)", async () => {
    const imported = await modulesAskedFor(`await import("@charity-steps/prize-draw");`);
    expect(imported).toContain("@charity-steps/prize-draw");
    expect(imported).not.toContain("drand-client");

    const placed = await modulesAskedFor(`
      const { firstRoundAfter } = await import("@charity-steps/prize-draw");
      if ((await firstRoundAfter({ genesis_time: 1, period: 3 }, 100_000)) !== 35) process.exit(1);`);
    expect(placed).toContain("drand-client");
  });
});
