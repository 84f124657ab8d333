import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { getMeta } from "../src/db";
import { checkStoreHealth, STORE_MARKER_KEY } from "../src/store-health";
import { freshDatabase } from "./helpers";

/** localStorage as a browser keeps it, apart from IndexedDB. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    clear: () => items.clear(),
  };
}

describe("noticing that the browser cleared the steps store", () => {
  beforeEach(freshDatabase);

  it("says nothing on a browser's first visit, then finds the store intact", async () => {
    const storage = memoryStorage();
    expect(await checkStoreHealth(storage)).toBe("new");
    expect(storage.getItem(STORE_MARKER_KEY)).toBe(await getMeta("storeMarker"));
    expect(await checkStoreHealth(storage)).toBe("intact");
  });

  it("reports the store lost when IndexedDB was emptied but localStorage was kept, once", async () => {
    const storage = memoryStorage();
    await checkStoreHealth(storage);
    await freshDatabase(); // What eviction leaves: an empty IndexedDB.
    expect(await checkStoreHealth(storage)).toBe("lost");
    expect(await checkStoreHealth(storage)).toBe("intact");
  });

  it("treats everything cleared at once as a first visit, and a cleared localStorage as intact", async () => {
    const storage = memoryStorage();
    await checkStoreHealth(storage);
    storage.clear();
    expect(await checkStoreHealth(storage)).toBe("intact");
    await freshDatabase();
    storage.clear();
    expect(await checkStoreHealth(storage)).toBe("new");
  });
});
