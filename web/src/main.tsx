import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router-dom";
import { appRoutes } from "./app/app-routes";
import { AppProviders } from "./app/providers";
import { UpdatePrompt } from "./app/update-prompt";
import { createQueryClient } from "./lib/query-client";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

const queryClient = createQueryClient();
// Created before the first render, so the opened screen's code and data start loading at once.
const router = createBrowserRouter(appRoutes(queryClient));

createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
    <UpdatePrompt />
  </StrictMode>,
);
