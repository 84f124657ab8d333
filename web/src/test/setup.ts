import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import { useToastStore } from "../lib/toast-store";

afterEach(() => {
  cleanup();
  useToastStore.setState({ current: null });
});
