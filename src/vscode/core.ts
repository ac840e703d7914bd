import { createRequire } from "node:module";
import { join } from "node:path";
import { currentBundle, t } from "../protocol/l10n";
import { reason } from "../protocol/reason";

/** What dist/core.js holds. */
export type Core = typeof import("./core-entry");

let loaded: Core | undefined;

/**
 * The heavy parts (the agent core, conversations, plugins, the execute API), loaded on first use from their
 * own bundle beside this one: activation stays cheap because VS Code parses only the thin editor layer.
 */
export function core(): Core {
  if (!loaded) {
    // Required at run time (the bundler does not follow createRequire), from beside this bundle.
    const file = join(__dirname, "core.js");
    try {
      loaded = createRequire(__filename)(file) as Core;
      // dist/core.js holds its own copy of the l10n module: it translates with the bundle activation set.
      loaded.setBundle(currentBundle());
    } catch (e) {
      throw new Error(
        t("Tandem's core could not be loaded from {0} ({1}). Reinstall the extension.", file, reason(e)),
      );
    }
  }
  return loaded;
}
