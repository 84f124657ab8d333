import { create } from "zustand";

export type ToastVariant = "default" | "destructive";

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds on screen; the Toaster's default (5 s) when absent. */
  duration?: number;
}

export interface ToastEntry extends ToastOptions {
  id: number;
  open: boolean;
}

interface ToastState {
  /** Only one toast is ever visible: a new one replaces it. */
  current: ToastEntry | null;
  show: (options: ToastOptions) => number;
  dismiss: (id?: number) => void;
}

let nextId = 1;

export const useToastStore = create<ToastState>()((set) => ({
  current: null,
  show: (options) => {
    const id = nextId++;
    set({ current: { ...options, id, open: true } });
    return id;
  },
  dismiss: (id) =>
    set(({ current }) => {
      if (!current || (id !== undefined && current.id !== id)) return {};
      // Kept (closed) rather than removed so the closing animation can play; the next toast replaces it.
      return { current: { ...current, open: false } };
    }),
}));

/** Shows a toast from anywhere (components, mutation handlers, plain modules). */
export function toast(options: ToastOptions): { id: number; dismiss: () => void } {
  const id = useToastStore.getState().show(options);
  return { id, dismiss: () => useToastStore.getState().dismiss(id) };
}

/**
 * Runs `show` once no toast is open: news that can wait (a celebration, a badge) waits for the toast
 * on screen (the steps just added, say) to close rather than hide what it says. Answers a cancel.
 */
export function whenNoToastIsOpen(show: () => void): () => void {
  if (!useToastStore.getState().current?.open) {
    show();
    return () => {};
  }
  const unsubscribe = useToastStore.subscribe((state) => {
    if (state.current?.open) return;
    unsubscribe();
    show();
  });
  return unsubscribe;
}
