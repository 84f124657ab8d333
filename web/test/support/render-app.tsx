import type { AuthUser } from "@charity-steps/shared-types";
import { render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { AppRoutes } from "../../src/app/app-routes";
import { AppProviders } from "../../src/app/providers";
import { createQueryClient } from "../../src/lib/query-client";

export const testWalker: AuthUser = {
  id: "user-1",
  firstName: "Ada",
  lastName: "Walker",
  email: "ada@example.com",
  profileImageUrl: null,
  createdAt: "2025-03-14T09:30:00.000Z",
  emailVerified: true,
  isOperator: false,
  accountKind: "built-in",
};

/** The real app (providers, layout, route table) at `path`, as main.tsx mounts it but in memory. */
export function renderApp(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders queryClient={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}
