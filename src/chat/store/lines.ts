/**
 * The journal's lines: each is one change of one row, as JSON on a line of its own.
 *   put     {"t":"items","k":KEY,"r":ROW}
 *   delete  {"t":"items","k":KEY,"d":1}
 *   patch   {"t":"items","k":KEY,"s":{FIELD:VALUE},"a":{FIELD:[LENGTH,SUFFIX]}}
 * A patch sets the fields of `s` and appends SUFFIX to each field of `a` whose text is LENGTH long
 * (the check keeps a patch from landing on a row it was not made for), so a growing answer costs
 * the journal its new words, not the whole text again.
 */
import { checked, isTable, type Row, type Rows, type Table } from "../row-schemas";

/** One change read from a line. `row` null: the row was deleted. */
export interface Entry {
  table: Table;
  key: string;
  row: Row | null;
}

type Fields = Record<string, unknown>;

/** The line that puts `row` (its key is its id). */
export function putLine(table: Table, row: Row): string {
  return JSON.stringify({ t: table, k: row.id, r: row }) + "\n";
}

/** The line that deletes the row `key` of `table`. */
export function deleteLine(table: Table, key: string): string {
  return JSON.stringify({ t: table, k: key, d: 1 }) + "\n";
}

/** True when two field values are the same: equal plain values, or lists (a message's files) that read the same. */
export function sameValue(u: unknown, v: unknown): boolean {
  return (
    u === v || (typeof u === "object" && typeof v === "object" && JSON.stringify(u) === JSON.stringify(v))
  );
}

/**
 * The line that turns `base` (the row as the journal has it) into `row`: a patch when that is
 * shorter than the whole row, else a put. "" when nothing changed.
 */
export function changeLine(table: Table, base: Row | undefined, row: Row): string {
  if (!base || base.id !== row.id) return putLine(table, row);
  const set: Fields = {};
  const append: Record<string, [number, string]> = {};
  let changed = false;
  let extent = 0;
  const before: Fields = base;
  for (const [field, value] of Object.entries(row)) {
    const old = before[field];
    if (sameValue(old, value)) continue;
    changed = true;
    if (typeof value === "string" && typeof old === "string" && old.length > 0 && value.startsWith(old)) {
      append[field] = [old.length, value.slice(old.length)];
      extent += value.length - old.length;
    } else {
      set[field] = value;
      extent += typeof value === "string" ? value.length : 8;
    }
  }
  if (!changed) return "";
  if (extent * 2 > rowSize(row)) return putLine(table, row);
  const line: Fields = { t: table, k: row.id };
  if (Object.keys(set).length) line.s = set;
  if (Object.keys(append).length) line.a = append;
  return JSON.stringify(line) + "\n";
}

/** About how many bytes a row takes on its line (its text, and a little for each field). */
export function rowSize(row: Row): number {
  let n = 24;
  for (const value of Object.values(row)) n += typeof value === "string" ? value.length + 12 : 16;
  return n;
}

/** A line that could not be read: why. */
export class LineError extends Error {}

/** A line of a table this version does not know (a newer Tandem wrote it): kept as it is. */
export class ForeignLine extends Error {}

/**
 * The change a line makes, given the row it finds (`current`); throws a LineError saying why the
 * line cannot be read, or a ForeignLine for a table this version does not know.
 */
export function readLine(text: string, current: (table: Table, key: string) => Row | undefined): Entry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LineError("it is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new LineError("it is not a change");
  }
  const line = value as Fields;
  const { t: table, k: key } = line;
  if (typeof table !== "string" || typeof key !== "string" || !key) {
    throw new LineError("it names no table or key");
  }
  if (!isTable(table)) throw new ForeignLine(table);
  if (line.d !== undefined) return { table, key, row: null };
  if (line.r !== undefined) {
    const row = checked(table, line.r);
    if (row.id !== key) throw new LineError("its row's id is not its key");
    return { table, key, row };
  }
  if (line.s !== undefined || line.a !== undefined) {
    const base = current(table, key);
    if (!base) throw new LineError(`it changes ${table} ${key}, which is not there`);
    const next: Fields = { ...base, ...asFields(line.s) };
    for (const [field, change] of Object.entries(asFields(line.a))) {
      const old = next[field];
      if (
        !Array.isArray(change) ||
        change.length !== 2 ||
        typeof change[1] !== "string" ||
        typeof old !== "string" ||
        old.length !== change[0]
      ) {
        throw new LineError(`its text for ${field} does not follow the row's`);
      }
      next[field] = old + change[1];
    }
    const row = checked(table, next) as Rows[typeof table];
    if (row.id !== key) throw new LineError("its row's id is not its key");
    return { table, key, row };
  }
  throw new LineError("it neither puts, patches nor deletes a row");
}

function asFields(value: unknown): Fields {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new LineError("its change is not a record");
  }
  return value as Fields;
}
