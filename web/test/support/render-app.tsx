import { render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { beforeAll } from "vitest";
import { AppRoutes } from "../../src/app/app-routes";
import { AppProviders } from "../../src/app/providers";
import { createQueryClient } from "../../src/lib/query-client";

// The routes load each screen's code on demand. Loading it all before a file's tests keeps that
// one-off work (the modules' first run in this test worker) out of the first test's time.
const screens = import.meta.glob(["../../src/app/routes/*.tsx", "../../src/features/**/*.tsx"]);
beforeAll(async () => {
  await Promise.all(Object.values(screens).map((load) => load()));
});

/**
 * The real app (providers, layout, route table) at `path`, as main.tsx mounts it but in memory, with
 * its query client (for a test that must know a read has answered).
 */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders queryClient={queryClient}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
  return { ...view, queryClient };
}
