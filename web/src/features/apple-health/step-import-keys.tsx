import {
  type CreatedStepImportKey,
  type CreateStepImportKeyRequest,
  HEALTH_KEYS_PATH,
  MAX_STEP_IMPORT_KEYS,
  STEP_IMPORT_KEY_NAME_MAX_CHARS,
  type StepImportKey,
} from "@charity-steps/shared-types";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Plus, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { CharacterCount, overLimit, tooLongMessage } from "../../components/character-count";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { CopyableValue } from "../../components/copy-button";
import { FormProblem } from "../../components/form-problem";
import { apiRequest, serverMessage } from "../../lib/api-client";
import { toast } from "../../lib/toast-store";
import { handleUnauthorizedError } from "../../lib/unauthorized";
import { useOnline } from "../../lib/use-online";
import { formatKeyDay, formatLastUsed } from "./format-last-used";

export const STEP_IMPORT_KEYS_KEY = [HEALTH_KEYS_PATH] as const;

const DEFAULT_DEVICE_NAME = "My iPhone";

/**
 * The walker's step-import keys: one per iPhone, each pasted into that phone's Shortcut. A new key's
 * secret is shown here once (the server keeps only its hash); the list shows when each key last sent
 * steps, and Remove revokes one after asking. It has no card or title of its own: the page that shows
 * it (the Apple Health page, the Account page) puts it in its card, under its own heading.
 */
export function StepImportKeys({
  onKeyCreated,
  onKeyRemoved,
}: {
  onKeyCreated?: (key: CreatedStepImportKey) => void;
  onKeyRemoved?: (key: StepImportKey) => void;
}) {
  const queryClient = useQueryClient();
  const online = useOnline();
  const keys = useQuery<StepImportKey[] | null>({ queryKey: STEP_IMPORT_KEYS_KEY });
  const [name, setName] = useState(DEFAULT_DEVICE_NAME);
  const [problem, setProblem] = useState<string | null>(null);
  // Held only in this component's memory: once the walker leaves or taps Done, it is gone for good.
  const [shown, setShown] = useState<CreatedStepImportKey | null>(null);
  // The key the walker asked to remove, while the dialog asks them to be sure.
  const [removing, setRemoving] = useState<StepImportKey | null>(null);
  const ids = { name: useId(), problem: useId() };

  const create = useMutation({
    mutationFn: async (body: CreateStepImportKeyRequest) =>
      (await (await apiRequest("POST", HEALTH_KEYS_PATH, body)).json()) as CreatedStepImportKey,
    onSuccess: async (created) => {
      setProblem(null);
      setShown(created);
      setName(DEFAULT_DEVICE_NAME);
      onKeyCreated?.(created);
      await queryClient.invalidateQueries({ queryKey: STEP_IMPORT_KEYS_KEY });
    },
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      // The server's words (the five-key limit, a name it refuses) are the walker's to read.
      setProblem(serverMessage(error, "The key could not be created. Check your connection and try again."));
    },
  });

  const remove = useMutation({
    mutationFn: async (key: StepImportKey) => {
      await apiRequest("DELETE", `${HEALTH_KEYS_PATH}/${encodeURIComponent(key.id)}`);
      return key;
    },
    onSuccess: async (key) => {
      queryClient.setQueryData<StepImportKey[] | null>(STEP_IMPORT_KEYS_KEY, (list) =>
        list ? list.filter(({ id }) => id !== key.id) : list,
      );
      if (shown?.id === key.id) setShown(null);
      onKeyRemoved?.(key);
      toast({ title: "Key removed", description: `${key.name} can no longer send steps.` });
      await queryClient.invalidateQueries({ queryKey: STEP_IMPORT_KEYS_KEY });
    },
    onError: (error) => {
      if (handleUnauthorizedError(error)) return;
      toast({
        title: "Error",
        description: serverMessage(error, "The key could not be removed. Please try again."),
        variant: "destructive",
      });
    },
  });

  const list = keys.data ?? [];
  const atLimit = list.length >= MAX_STEP_IMPORT_KEYS;

  return (
    <div className="space-y-4">
      <p className="flex items-start gap-2 text-sm text-muted">
        <KeyRound aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-strong" />
        Each iPhone gets its own key: its Shortcut sends the key with your steps, so Charity Steps knows they
        are yours.
      </p>

      {shown ? (
        <section className="space-y-2 rounded-lg border border-brand bg-brand-soft p-3" aria-label="New key">
          <p className="text-sm font-semibold">Your key for {shown.name}</p>
          <CopyableValue value={shown.key} label="Copy the new key" what="Key" testId="new-step-key" />
          <p className="text-sm font-semibold text-destructive">
            You will not see this key again. Copy it now and paste it into the Shortcut on your iPhone.
          </p>
          <button type="button" className="btn-secondary w-full" onClick={() => setShown(null)}>
            Done, I've copied it
          </button>
        </section>
      ) : (
        <form
          className="space-y-2"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const trimmed = name.trim();
            if (trimmed === "") {
              setProblem("Give the key a name, such as the phone it is for.");
              return;
            }
            if (overLimit(trimmed, STEP_IMPORT_KEY_NAME_MAX_CHARS)) {
              setProblem(tooLongMessage("The name", STEP_IMPORT_KEY_NAME_MAX_CHARS));
              return;
            }
            create.mutate({ name: trimmed });
          }}
        >
          <div>
            <label htmlFor={ids.name} className="block text-sm font-medium">
              Name of the iPhone
              <input
                id={ids.name}
                value={name}
                autoComplete="off"
                aria-invalid={problem !== null}
                aria-describedby={problem ? `${ids.name}-count ${ids.problem}` : `${ids.name}-count`}
                onChange={(event) => {
                  setName(event.target.value);
                  setProblem(null);
                }}
                className="field"
              />
            </label>
            <CharacterCount
              id={`${ids.name}-count`}
              label="The name"
              text={name.trim()}
              max={STEP_IMPORT_KEY_NAME_MAX_CHARS}
            />
          </div>
          <FormProblem id={ids.problem} problem={problem} />
          {atLimit && !problem && (
            <p className="text-sm text-muted">
              You have {MAX_STEP_IMPORT_KEYS} keys, the most you can hold. Remove one you no longer use first.
            </p>
          )}
          <button type="submit" className="btn-primary w-full" disabled={!online || create.isPending}>
            <Plus aria-hidden="true" className="size-4" />
            {create.isPending ? "Creating…" : "Create key"}
          </button>
        </form>
      )}

      {!online && (
        <p className="text-sm text-muted" role="status">
          You're offline: creating and removing keys need the connection.
        </p>
      )}

      <div>
        <h3 className="text-sm font-semibold">Your keys</h3>
        {keys.isLoading ? (
          <p className="text-sm text-muted" role="status">
            Loading your keys…
          </p>
        ) : keys.error ? (
          <p className="text-sm text-muted">Your keys could not be loaded. Check your connection.</p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted">No keys yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-line rounded-lg border border-line">
            {list.map((key) => (
              <li key={key.id} className="flex items-center justify-between gap-3 p-3">
                <div className="min-w-0">
                  <p className="[overflow-wrap:break-word] font-medium">{key.name}</p>
                  <p className="text-sm text-muted">
                    {formatLastUsed(key.lastUsedAt)} · added {formatKeyDay(key.createdAt)}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn-secondary shrink-0 px-3 py-1.5 text-sm text-destructive"
                  aria-label={`Remove ${key.name}`}
                  disabled={!online || remove.isPending}
                  onClick={() => setRemoving(key)}
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <ConfirmDialog
          open={removing !== null}
          title={`Remove the key "${removing?.name ?? ""}"?`}
          description="The Shortcut using it will stop sending steps."
          confirmLabel="Remove key"
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            if (removing) remove.mutate(removing);
            setRemoving(null);
          }}
        />
      </div>
    </div>
  );
}
