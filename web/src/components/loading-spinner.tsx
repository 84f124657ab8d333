import { LoaderCircle } from "lucide-react";

export function LoadingSpinner() {
  return (
    <div role="status" aria-label="Loading" className="flex min-h-64 items-center justify-center">
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-brand" />
    </div>
  );
}
