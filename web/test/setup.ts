import "fake-indexeddb/auto";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import { useToastStore } from "../src/lib/toast-store";

afterEach(() => {
  cleanup();
  globalThis.localStorage?.clear();
  useToastStore.setState({ current: null });
});
