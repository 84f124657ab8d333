import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { AppRoutes, preloadRoute } from "./app/app-routes";
import { AppProviders } from "./app/providers";
import { UpdatePrompt } from "./app/update-prompt";
import { createQueryClient } from "./lib/query-client";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

preloadRoute(window.location.pathname);

createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <AppProviders queryClient={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
    <UpdatePrompt />
  </StrictMode>,
);
