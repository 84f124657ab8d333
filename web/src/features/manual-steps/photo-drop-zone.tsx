import { MANUAL_IMAGE_MAX_LABEL } from "@charity-steps/shared-types";
import { ImagePlus, X } from "lucide-react";
import { type DragEvent, useId, useState } from "react";

/**
 * A photo picker that also takes a dropped file. Native drag events
 * and a file input: a library's table of every file type would outweigh the whole form.
 */
export function PhotoDropZone({
  photo,
  onPick,
  problemId,
}: {
  photo: File | null;
  onPick: (file: File | null) => void;
  /** The id of the text saying what is wrong with the photo, when something is. */
  problemId?: string;
}) {
  const [dragging, setDragging] = useState(false);
  const inputId = useId();
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) onPick(file);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: only a drop target; the file input is the keyboard and tap path.
    <div
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      // The file input itself is visually hidden, so the zone shows where keyboard focus is.
      className={`flex flex-col items-center gap-2 rounded-lg border-2 border-dashed p-4 text-center text-sm has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-brand-strong ${
        dragging ? "border-brand bg-brand-soft" : "border-line"
      }`}
    >
      <ImagePlus aria-hidden="true" className="size-6 text-brand-strong" />
      {photo ? (
        <p className="flex items-center gap-2 font-medium">
          {photo.name}
          <button
            type="button"
            aria-label="Remove photo"
            className="rounded p-1 hover:bg-page"
            onClick={() => onPick(null)}
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </p>
      ) : (
        <label htmlFor={inputId} className="cursor-pointer">
          Drop a photo here, or <span className="link">tap to choose one</span> (JPG, PNG…, under{" "}
          {MANUAL_IMAGE_MAX_LABEL})
        </label>
      )}
      <input
        id={inputId}
        type="file"
        accept="image/*"
        aria-label="Photo proof"
        aria-invalid={problemId !== undefined}
        aria-describedby={problemId}
        className="sr-only"
        onChange={(event) => {
          onPick(event.target.files?.[0] ?? null);
          event.target.value = "";
        }}
      />
    </div>
  );
}
