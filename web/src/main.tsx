import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { AppRoutes, preloadRoute } from "./app/app-routes";
import { AppProviders } from "./app/providers";
import { UpdatePrompt } from "./app/update-prompt";
import { listenForInstallOffer } from "./lib/install-prompt";
import { keepReadsOnceControlled } from "./lib/offline-copies";
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
keepReadsOnceControlled(queryClient);

// In a transition, React draws the app's first render in short slices, the browser free to paint
// and answer a tap in between, instead of in one task that holds a slow phone's page until the
// whole tree is built.
const reactRoot = createRoot(root);
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <BrowserRouter>
        <AppProviders queryClient={queryClient}>
          <AppRoutes />
        </AppProviders>
      </BrowserRouter>
      <UpdatePrompt />
    </StrictMode>,
  );
});
