import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { AppRoutes, preloadRoute } from "./app/app-routes";
import { AppProviders } from "./app/providers";
import { UpdatePrompt } from "./app/update-prompt";
import { listenForInstallOffer } from "./lib/install-prompt";
import { createQueryClient } from "./lib/query-client";
import { applyTheme, storedTheme } from "./lib/theme";
import "./styles.css";

// Before the first paint: the theme this device last showed, until the walker is known.
applyTheme(storedTheme());
listenForInstallOffer();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

const queryClient = createQueryClient();
preloadRoute(window.location.pathname, queryClient);

createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <AppProviders queryClient={queryClient}>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
    <UpdatePrompt />
  </StrictMode>,
);
