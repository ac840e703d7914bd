/**
 * A checkpoint's version of one path as a diff view shows it: the file's bytes, where a link led,
 * a folder, or why the checkpoint did not keep it.
 */
import type { Blobs } from "./blobs";
import type { Entry } from "./manifest";
import { sized } from "./scan";

/** One checkpoint's version of a path, for a diff view. */
export type Version =
  | { kind: "file"; bytes: Buffer; mode: number }
  | { kind: "link"; target: string }
  | { kind: "folder" }
  | { kind: "not kept"; why: string };

/** The version the manifest entry `e` records (its bytes read from `blobs`); `maxFileBytes` names the size cap. */
export function versionOf(e: Entry, blobs: Blobs, maxFileBytes: number): Version {
  switch (e.t) {
    case "f":
      return { kind: "file", bytes: blobs.read(e.h), mode: e.m };
    case "l":
      return { kind: "link", target: e.to };
    case "d":
      return { kind: "folder" };
    case "big":
      return { kind: "not kept", why: `larger than ${sized(maxFileBytes)}` };
    case "skip":
      return { kind: "not kept", why: e.why };
  }
}
