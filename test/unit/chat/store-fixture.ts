/** What the store's tests share: a temp folder for each test and the stores opened on it. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store, type StoreOptions } from "../../../src/chat/store/store";

/** The current test's folder and a way to open stores on it. */
export interface StoreFolder {
  /** The folder of the running test. */
  readonly folder: string;
  /** A store opened on the folder with `options` over the suite's; it is closed after the test. */
  opened: (options?: StoreOptions) => Promise<Store>;
  /** Forgets the stores opened so far, which the test closed itself. */
  forget(): void;
}

/**
 * Gives each test of the calling suite a new temp folder named from PREFIX; after the test, the
 * stores it opened are closed and the folder removed. DEFAULTS are options every store gets.
 */
export function storeFolder(prefix: string, defaults: StoreOptions = {}): StoreFolder {
  let folder = "";
  const open: Store[] = [];
  beforeEach(async () => (folder = await mkdtemp(join(tmpdir(), prefix))));
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    await rm(folder, { recursive: true, force: true });
  });
  return {
    get folder() {
      return folder;
    },
    async opened(options = {}) {
      const store = await Store.open(folder, { ...defaults, ...options });
      open.push(store);
      return store;
    },
    forget() {
      open.length = 0;
    },
  };
}
