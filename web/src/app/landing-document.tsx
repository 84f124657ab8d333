import { StrictMode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom";
import { paths } from "../lib/paths";
import { createQueryClient } from "../lib/query-client";
import { authUserQuery } from "../lib/use-auth";
import { AppRoutes, landingPage } from "./app-routes";
import { AppProviders } from "./providers";

/**
 * The landing page as the app draws it for a visitor who is not signed in, as HTML: run once when
 * the app is built, so that the server can send a browser with no session a page that needs none
 * of the app's JavaScript to show (see web/scripts/build.mjs). The same routes, layout and screen
 * as the app's, so the two cannot drift apart.
 */
export async function renderLandingPage(): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(authUserQuery.queryKey, null);
  await landingPage.preload();
  return renderToStaticMarkup(
    <StrictMode>
      <StaticRouter location={paths.home}>
        <AppProviders queryClient={queryClient}>
          <AppRoutes />
        </AppProviders>
      </StaticRouter>
    </StrictMode>,
  );
}
