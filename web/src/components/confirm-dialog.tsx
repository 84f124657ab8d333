import { useEffect, useId, useRef } from "react";

/**
 * Asks before something that cannot be undone, in the app's own look: a modal `<dialog>`, so the
 * browser keeps focus inside it, makes the page behind it inert, closes it on Escape and gives focus
 * back to the button that opened it. Cancel has focus first, so Enter pressed by habit undoes nothing.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = { title: useId(), description: useId() };

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      // jsdom has neither showModal nor close; there the dialog is simply shown and hidden.
      if (typeof element.showModal === "function") element.showModal();
      else element.setAttribute("open", "");
    } else if (!open && element.open) {
      if (typeof element.close === "function") element.close();
      else element.removeAttribute("open");
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={ids.title}
      aria-describedby={ids.description}
      className="m-auto w-[calc(100%-2rem)] max-w-sm rounded-xl border border-line bg-surface p-5 text-ink shadow-xl backdrop:bg-ink/40"
      // Escape closes the dialog itself; the parent hears it as a cancel.
      onCancel={onCancel}
    >
      <h2 id={ids.title} className="text-lg font-semibold">
        {title}
      </h2>
      <p id={ids.description} className="mt-2 text-sm text-muted">
        {description}
      </p>
      <div className="fit-grid mt-5 gap-2 [--fit-min:7rem]">
        {/* biome-ignore lint/a11y/noAutofocus: the safe choice takes focus as the dialog opens. */}
        <button type="button" className="btn-secondary" autoFocus onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn-primary bg-destructive" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
