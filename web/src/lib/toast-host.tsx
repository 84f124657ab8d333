import { type ComponentType, useEffect, useState } from "react";
import { useToastStore } from "./toast-store";

// Radix Toast is a tenth of the app's JavaScript; most visits (the landing page among them) never
// show a toast, so it loads with the first one. A plain import() rather than React.lazy: Suspense
// holds a revealed boundary back for up to 300 ms, and the Unauthorized toast only has 500 ms.
let loadedToaster: ComponentType | null = null;
let loading: Promise<ComponentType> | null = null;

/** Loads the toaster once; resolves when a toast can be shown. */
export function loadToaster(): Promise<ComponentType> {
  loading ??= import("./toaster").then((module) => {
    loadedToaster = module.Toaster;
    return module.Toaster;
  });
  return loading;
}

export function ToastHost() {
  const hasToast = useToastStore((state) => state.current !== null);
  const [Toaster, setToaster] = useState<ComponentType | null>(() => loadedToaster);

  useEffect(() => {
    if (!hasToast || Toaster) return;
    let cancelled = false;
    loadToaster().then(
      (toaster) => {
        if (!cancelled) setToaster(() => toaster);
      },
      (error: unknown) => console.error("Could not load the toaster", error),
    );
    return () => {
      cancelled = true;
    };
  }, [hasToast, Toaster]);

  return Toaster ? <Toaster /> : null;
}
