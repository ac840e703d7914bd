/**
 * Zod schemas of every message the panel sends. Only the host imports this file: a webview is
 * untrusted input, and the panel bundle must not carry zod.
 */
import { z } from "zod";
import type { PanelMessage } from "./messages";

const id = z.string().min(1).max(200);
/** An id that may be "" (a new chat, the default model). */
const optionalId = z.string().max(200);
const text = z.string().max(1_000_000);
const name = z.string().max(200);

const fileRef = z
  .object({
    path: z.string().min(1).max(4096),
    name: z.string().max(500),
    kind: z.enum(["image", "pdf", "text"]),
  })
  .strict();

const relative = z.string().min(1).max(4096);

const contextRef = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("file"), path: relative }).strict(),
  z.object({ kind: z.literal("folder"), path: relative }).strict(),
  z
    .object({
      kind: z.literal("symbol"),
      name: z.string().min(1).max(500),
      path: relative,
      line: z.number().int().min(0).max(10_000_000),
    })
    .strict(),
  z.object({ kind: z.literal("selection") }).strict(),
  z.object({ kind: z.literal("editors") }).strict(),
  z.object({ kind: z.literal("problems") }).strict(),
  z.object({ kind: z.literal("terminal") }).strict(),
]);

/** A pasted image's data URL: 5 MB of bytes are about 6.7 million base64 characters. */
const MAX_PASTE_CHARS = 7_000_000;

const assistant = z
  .object({
    id,
    name: z.string().max(80),
    instructions: text,
    model: optionalId,
    tools: z.string().max(10_000),
    approve: z.string().max(10_000),
    // "user" keeps it for every workspace; a repository's assistant saved becomes the person's.
    source: z.enum(["repository", "user"]).optional(),
    mode: z.enum(["plan"]).optional(),
  })
  .strict();

const skill = z.object({ id, name, description: z.string().max(2_000), body: text }).strict();

const plugin = z
  .object({
    id,
    agent: optionalId,
    name: z.string().max(80),
    address: z.string().max(2_048),
    header: z.string().max(200),
    enabled: z.boolean(),
    key: z.string().max(10_000).optional(),
  })
  .strict();

/** The schema of a message from the panel. */
export const panelMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }).strict(),
  z
    .object({
      type: z.literal("send"),
      chat: optionalId,
      text,
      files: z.array(fileRef).max(100),
      model: optionalId,
      assistant: optionalId,
      context: z.array(contextRef).max(50).optional(),
      instructions: z.boolean().optional(),
      mode: z.literal("plan").optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal("steer"),
      chat: id,
      text,
      files: z.array(fileRef).max(100),
      model: optionalId,
      context: z.array(contextRef).max(50).optional(),
    })
    .strict(),
  z.object({ type: z.literal("suggest"), query: z.string().max(500) }).strict(),
  z.object({ type: z.literal("render"), ids: z.array(id).min(1).max(500) }).strict(),
  z.object({ type: z.literal("prompts") }).strict(),
  z
    .object({
      type: z.literal("paste"),
      name: z.string().max(200),
      data: z
        .string()
        .max(MAX_PASTE_CHARS)
        .regex(/^data:image\/[a-z.+-]+;base64,[A-Za-z0-9+/=]+$/),
    })
    .strict(),
  z.object({ type: z.literal("retry"), chat: id, model: optionalId }).strict(),
  z
    .object({
      type: z.literal("resend"),
      item: id,
      text,
      files: z.array(fileRef).max(100),
      model: optionalId,
      restore: z.boolean(),
    })
    .strict(),
  z.object({ type: z.literal("regenerate"), item: id, model: optionalId }).strict(),
  z
    .object({ type: z.literal("restoreTo"), item: id, files: z.boolean(), conversation: z.boolean() })
    .strict(),
  z.object({ type: z.literal("restoreAnswer"), ask: id, yes: z.boolean() }).strict(),
  z.object({ type: z.literal("changesSince"), item: id }).strict(),
  z.object({ type: z.literal("stop"), chat: id }).strict(),
  z
    .object({
      type: z.literal("decide"),
      item: id,
      yes: z.boolean(),
      always: z.boolean(),
      network: z.optional(z.boolean()),
    })
    .strict(),
  z.object({ type: z.literal("newChat") }).strict(),
  z.object({ type: z.literal("openChat"), chat: id }).strict(),
  z.object({ type: z.literal("rename"), chat: id, title: z.string().max(500) }).strict(),
  z.object({ type: z.literal("instructions"), chat: id, on: z.boolean() }).strict(),
  z.object({ type: z.literal("mode"), chat: id, mode: z.enum(["plan", "act"]) }).strict(),
  z.object({ type: z.literal("act"), item: id }).strict(),
  z.object({ type: z.literal("editPlan"), item: id }).strict(),
  z.object({ type: z.literal("deleteChat"), chat: id }).strict(),
  z.object({ type: z.literal("undoDelete"), chat: id }).strict(),
  z.object({ type: z.literal("saveAssistant"), assistant }).strict(),
  z.object({ type: z.literal("deleteAssistant"), id }).strict(),
  z.object({ type: z.literal("saveSkill"), skill }).strict(),
  z.object({ type: z.literal("deleteSkill"), id }).strict(),
  z.object({ type: z.literal("savePlugin"), plugin }).strict(),
  z.object({ type: z.literal("deletePlugin"), id }).strict(),
  z.object({ type: z.literal("forget"), id }).strict(),
  // As long as a memory the model may keep (MEMORY_LIMIT).
  z.object({ type: z.literal("remember"), agent: id, text: z.string().max(1_000) }).strict(),
  z.object({ type: z.literal("attach") }).strict(),
  z.object({ type: z.literal("drop"), uris: z.array(z.string().min(1).max(4096)).max(100) }).strict(),
  z
    .object({
      type: z.literal("code"),
      action: z.enum(["copy", "insert", "new-file"]),
      code: text,
      language: z.string().max(100),
    })
    .strict(),
  z.object({ type: z.literal("openLink"), url: z.string().min(1).max(8_192) }).strict(),
  z.object({ type: z.literal("openFile"), path: z.string().min(1).max(4_096) }).strict(),
  z.object({ type: z.literal("loadImage"), url: z.string().min(1).max(8_192) }).strict(),
  z.object({ type: z.literal("search"), query: z.string().max(1_000) }).strict(),
  z.object({ type: z.literal("command"), command: z.enum(["setApiKey", "openSettings"]) }).strict(),
  z
    .object({
      type: z.literal("pendingAction"),
      action: z.enum(["review", "keepAll", "undoAll"]),
      path: z.string().max(4_096),
    })
    .strict(),
]);

// Both directions must hold, so the schema and the TypeScript union cannot drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same: Same<z.infer<typeof panelMessage>, PanelMessage> = true;
void same;

/** A message from the panel, or why it is not one (the host drops it and logs the reason). */
export function parsePanelMessage(
  value: unknown,
): { ok: true; message: PanelMessage } | { ok: false; error: string } {
  const result = panelMessage.safeParse(value);
  if (result.success) return { ok: true, message: result.data };
  return { ok: false, error: z.prettifyError(result.error) };
}
