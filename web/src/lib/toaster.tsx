import { TOAST_DEFAULT_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from "@charity-steps/shared-types";
import * as ToastPrimitive from "@radix-ui/react-toast";
import { X } from "lucide-react";
import { useToastStore } from "./toast-store";

/**
 * Renders the one current toast. Radix supplies the behaviour the spec asks for: F8 focuses the
 * region, swipe right past the threshold dismisses, and the timer pauses while hovered or focused.
 */
export function Toaster() {
  const current = useToastStore((state) => state.current);
  const dismiss = useToastStore((state) => state.dismiss);

  return (
    <ToastPrimitive.Provider
      duration={TOAST_DEFAULT_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
    >
      {current && (
        <ToastPrimitive.Root
          // A new id remounts the toast, so its timer and animation start afresh.
          key={current.id}
          open={current.open}
          onOpenChange={(open) => {
            if (!open) dismiss(current.id);
          }}
          duration={current.duration}
          type={current.variant === "destructive" ? "foreground" : "background"}
          className={`toast relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg ${
            current.variant === "destructive"
              ? "border-destructive bg-destructive text-on-destructive"
              : "border-line bg-surface text-ink"
          }`}
        >
          <div className="grid min-w-0 gap-1 [overflow-wrap:anywhere]">
            <ToastPrimitive.Title className="text-sm font-semibold">{current.title}</ToastPrimitive.Title>
            {current.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {current.description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:opacity-100"
          >
            <X aria-hidden="true" className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport className="fixed top-0 right-0 z-50 m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none" />
    </ToastPrimitive.Provider>
  );
}
