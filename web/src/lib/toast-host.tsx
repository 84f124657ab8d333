import { lazy, Suspense } from "react";
import { useToastStore } from "./toast-store";

// Radix Toast is a tenth of the app's JavaScript; most visits (the landing page among them) never
// show a toast, so it loads with the first one.
const Toaster = lazy(() => import("./toaster").then((m) => ({ default: m.Toaster })));

export function ToastHost() {
  const hasToast = useToastStore((state) => state.current !== null);
  if (!hasToast) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
