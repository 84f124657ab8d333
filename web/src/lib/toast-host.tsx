import { type ComponentType, useEffect, useState } from "react";
import { useToastStore } from "./toast-store";

// Radix Toast is a tenth of the app's JavaScript; most visits (the landing page among them) never
// show a toast, so it loads with the first one. A plain import() rather than React.lazy: Suspense
// holds a revealed boundary back for up to 300 ms, and the Unauthorized toast only has 500 ms.
let loadedToaster: ComponentType | null = null;

export function ToastHost() {
  const hasToast = useToastStore((state) => state.current !== null);
  const [Toaster, setToaster] = useState<ComponentType | null>(() => loadedToaster);

  useEffect(() => {
    if (!hasToast || Toaster) return;
    let cancelled = false;
    import("./toaster").then(
      (module) => {
        loadedToaster = module.Toaster;
        if (!cancelled) setToaster(() => module.Toaster);
      },
      (error: unknown) => console.error("Could not load the toaster", error),
    );
    return () => {
      cancelled = true;
    };
  }, [hasToast, Toaster]);

  return Toaster ? <Toaster /> : null;
}
