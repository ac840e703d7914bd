/** The views that follow a store's rows: each says which rows it follows and is told only their changes. */
import type { Rows, Table } from "../row-schemas";
import type { Change } from "./state";

/** What a view follows: the rows of `table`, only the row `key`, and/or rows whose fields equal `where`. */
export interface Follow<T extends Table = Table> {
  table: T;
  key?: string;
  where?: Partial<Rows[T]>;
}

interface View {
  what: Follow;
  listener: (change: Change) => void;
}

/** True when `what` selects the changed row (as it is now, or as it was: a row leaving a view is told too). */
export function selects(what: Follow, change: Change): boolean {
  if (what.table !== change.table) return false;
  if (what.key !== undefined && what.key !== change.key) return false;
  if (!what.where) return true;
  const where = Object.entries(what.where);
  const fits = (row: object | null) =>
    row !== null && where.every(([field, value]) => (row as Record<string, unknown>)[field] === value);
  return fits(change.row) || fits(change.before);
}

/** The views of one store. */
export class Views {
  private readonly views = new Set<View>();

  /** Adds a view; the returned function removes it. */
  add<T extends Table>(what: Follow<T>, listener: (change: Change<T>) => void): () => void {
    const view: View = { what, listener: listener as (change: Change) => void };
    this.views.add(view);
    return () => void this.views.delete(view);
  }

  /** Tells each view that follows the changed row; a view that throws does not stop the others. */
  tell(change: Change): void {
    for (const view of this.views) {
      if (!selects(view.what, change)) continue;
      try {
        view.listener(change);
      } catch (e) {
        console.error("Tandem: a view failed on a changed row:", e);
      }
    }
  }

  /** Removes every view. */
  clear(): void {
    this.views.clear();
  }
}
