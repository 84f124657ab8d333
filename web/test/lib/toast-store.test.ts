import { describe, expect, it } from "vitest";
import { toast, useToastStore } from "../../src/lib/toast-store";

describe("toasts", () => {
  it("shows only the newest one: a new toast replaces the visible one", () => {
    toast({ title: "Group Created" });
    toast({
      title: "Selection Failed",
      description: "Failed to select charity. Please try again.",
      variant: "destructive",
    });

    const { current } = useToastStore.getState();
    expect(current).toMatchObject({
      title: "Selection Failed",
      description: "Failed to select charity. Please try again.",
      variant: "destructive",
      open: true,
    });
  });

  it("closes the visible toast when dismissed, but not when an older one's dismissal arrives late", () => {
    const older = toast({ title: "Left Group" });
    const newer = toast({ title: "Joined Group" });

    older.dismiss();
    expect(useToastStore.getState().current).toMatchObject({ title: "Joined Group", open: true });

    newer.dismiss();
    expect(useToastStore.getState().current).toMatchObject({ title: "Joined Group", open: false });
  });
});
