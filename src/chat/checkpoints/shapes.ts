/** What the checkpoint store's callers give it and get back: where and how much, what a restore did, progress. */
import type { Ignore, Note } from "./scan";

/** Where the workspace and the store are, and the limits. */
export interface Options {
  /** The workspace folder. */
  root: string;
  /** The store's folder (in the extension's storage). */
  folder: string;
  /** Paths left out of checkpoints (`.git` and the store itself always are). */
  ignore?: Ignore;
  /** Files larger than this are recorded with a note, never copied (default 50 MB). */
  maxFileBytes?: number;
  /** The store's size limit: the oldest checkpoints are dropped past it (default 2 GB). */
  maxTotalBytes?: number;
  /** Keep text deflated (default true). */
  compress?: boolean;
  /** Let a watcher say what changed, so a checkpoint need not walk the tree (default true). */
  watch?: boolean;
}

/** What a restore did. */
export interface Restored {
  /** The checkpoint taken just before, to undo the restore. */
  undo: string;
  /** Paths written or removed. */
  changed: number;
  /** The files (not folders) written or removed, and whether each was there in the checkpoint. */
  files: { path: string; removed: boolean }[];
  /** Paths left as they were, and why (too large, not covered, in the way). */
  notRestored: Note[];
}

/** Progress: told the path just read or written (also lets tests stop a process at any step). */
export type Step = (path: string) => void;
