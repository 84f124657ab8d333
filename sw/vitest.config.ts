import { defineConfig } from "vitest/config";

export default defineConfig({
  // shared-types is used from its TypeScript source (no build step), in the node test runner too.
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: { include: ["test/**/*.test.ts"], environment: "node" },
});
