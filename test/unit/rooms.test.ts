/**
 * src/chat is a house of rooms: each a folder with one door (index.ts). Outside a room only its door is
 * imported, rooms import only rooms below them in ROOMS (and the shared tables at chat's top level, which import
 * no room), and ARCHITECTURE.md names every room.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = join(__dirname, "../..");
const chat = join(root, "src/chat");

/** The rooms, bottom first: a room may import the doors of the rooms before it, never after. */
export const ROOMS = [
  "net",
  "workspace",
  "store",
  "approval",
  "pending",
  "checkpoints",
  "models",
  "plugins",
  "assistants",
  "runner",
  "panel",
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|mts)$/.test(name) ? [path] : [];
  });
}

/** The files a source file imports by relative path, resolved. */
function targets(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const pattern =
    /(?:import|export)\s[^'"]*?from\s*["'](\.[^"']*)["']|import\s*\(\s*["'](\.[^"']*)["']\s*\)|import\s+["'](\.[^"']*)["']/g;
  return [...text.matchAll(pattern)].flatMap((m) => {
    const base = resolve(dirname(path), m[1] ?? m[2] ?? m[3]);
    const found = ["", ".ts", "/index.ts"]
      .map((e) => base + e)
      .find((p) => existsSync(p) && statSync(p).isFile());
    return found ? [found] : [];
  });
}

/** The room a file of src/chat lives in, or undefined for the top level and everything outside chat. */
function roomOf(path: string): string | undefined {
  const inside = relative(chat, path);
  if (inside.startsWith("..") || !inside.includes("/")) return undefined;
  return inside.split("/")[0];
}

const source = files(join(root, "src"));

/** The imports of a room from a room after it in ORDER. */
function upward(order: string[]): string[] {
  return source.flatMap((file) => {
    const mine = roomOf(file);
    if (!mine) return [];
    return targets(file)
      .filter((t) => roomOf(t) && order.indexOf(roomOf(t)!) > order.indexOf(mine))
      .map((t) => `${relative(root, file)} -> ${relative(root, t)}`);
  });
}

describe("the rooms of src/chat", () => {
  it("every folder of src/chat is a room in the order, with a door", () => {
    const folders = readdirSync(chat).filter((name) => statSync(join(chat, name)).isDirectory());
    assert.deepEqual([...folders].sort(), [...ROOMS].sort());
    for (const room of ROOMS) assert.ok(existsSync(join(chat, room, "index.ts")), `${room} has index.ts`);
  });

  it("outside a room only its door is imported", () => {
    const offenders = source.flatMap((file) =>
      targets(file)
        .filter((t) => roomOf(t) && roomOf(t) !== roomOf(file))
        .filter((t) => relative(join(chat, roomOf(t)!), t) !== "index.ts")
        .map((t) => `${relative(root, file)} -> ${relative(root, t)}`),
    );
    assert.deepEqual(offenders, []);
  });

  it("a room imports only rooms below it", () => {
    assert.deepEqual(upward(ROOMS), []);
  });

  it("the top level of chat (the tables every room shares: rows, make) imports no room", () => {
    const offenders = source
      .filter((file) => dirname(file) === chat)
      .flatMap((file) =>
        targets(file)
          .filter((t) => roomOf(t))
          .map((t) => `${relative(root, file)} -> ${relative(root, t)}`),
      );
    assert.deepEqual(offenders, []);
  });

  it("src/chat keeps few files at its top level", () => {
    const top = readdirSync(chat).filter((name) => statSync(join(chat, name)).isFile());
    assert.ok(top.length <= 10, `top level of src/chat: ${top.join(", ")}`);
  });

  it("ARCHITECTURE.md names every room", () => {
    const map = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");
    const missing = ROOMS.filter((room) => !map.includes(`chat/${room}/`));
    assert.deepEqual(missing, []);
  });

  it("the order test sees imports: with the order reversed, the panel's use of the runner is upward", () => {
    const reversed = upward([...ROOMS].reverse());
    assert.ok(
      reversed.some(
        (edge) => edge.startsWith("src/chat/panel/") && edge.endsWith("src/chat/runner/index.ts"),
      ),
    );
  });
});
