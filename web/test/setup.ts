import "fake-indexeddb/auto";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";
import { useToastStore } from "../src/lib/toast-store";

// Routes and forms load on demand: on a busy machine (CI runs the suites side by side) the first
// render of a lazy chunk can take longer than Testing Library's default second to appear.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  globalThis.localStorage?.clear();
  useToastStore.setState({ current: null });
});
