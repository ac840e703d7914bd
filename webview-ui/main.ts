/** The side panel's entry: builds the page, follows the host's messages and wires what the person does. */
// First: the translations are set before any module makes a text.
import "./page-l10n";
// Importing the stylesheet makes esbuild write webview.css beside webview.js.
import "./style.css";
import type { HostMessage, RowsChanged } from "../src/protocol/messages";
import { BlockText } from "./item-blocks";
import { ChatList } from "./chat-list";
import { Composer } from "./composer";
import { h } from "./dom";
import { emptyState } from "./empty";
import { connect } from "./bridge";
import type { Panel } from "./items";
import { MemoryPage, assistantsPage, pluginsPage, skillsPage } from "./pages";
import { PanelState, type RowsDelta } from "./panel-state";
import { Tabs } from "./tabs";
import { Transcript } from "./transcript";
import { wireBlocks } from "./actions";
import { imageAnswered } from "./images";
import { PendingBar } from "./pending-bar";
import { restoreAsked, restoreDone } from "./restore-menu";
import { t } from "../src/protocol/l10n";

const host = connect();
const store = new PanelState();
const panel: Panel = { store, host };
const saved = host.state();

const live = h("div", { class: "visually-hidden", "aria-live": "polite", role: "status" });
/** Says `text` once in the live region (cleared first, so the same words are said again). */
function announce(text: string): void {
  live.textContent = "";
  setTimeout(() => (live.textContent = text), 50);
}

const transcript = new Transcript(panel, announce, () => emptyState(panel));
const composer = new Composer(panel, save);
const pending = new PendingBar(host);
composer.input.value = saved.draft ?? "";
composer.instructionsDraft = saved.instructions ?? true;
composer.plan.draft = saved.plan ?? false;
// A draft kept across a reload keeps its switch as the person left it (for the assistant it was for).
if (saved.plan !== undefined) composer.plan.followed = saved.assistant ?? "";
composer.preferred = { model: saved.model ?? "", assistant: saved.assistant ?? "" };
composer.queue.load(saved.queued);
const chats = new ChatList(panel, () => tabs.select("chat"));
const assistants = assistantsPage(panel);
const skills = skillsPage(panel);
const plugins = pluginsPage(panel);
const memory = new MemoryPage(panel, (chat) => {
  host.post({ type: "openChat", chat });
  tabs.select("chat");
});

const chatPage = h(
  "section",
  { class: "page chat", "aria-label": t("Chat") },
  transcript.element,
  pending.element,
  composer.element,
);
const tabs = new Tabs(
  [
    { id: "chat", label: t("Chat"), icon: "comment-discussion", page: chatPage, focus: () => composer.input },
    {
      id: "chats",
      label: t("Conversations"),
      icon: "history",
      page: chats.element,
      focus: () => chats.search,
    },
    { id: "assistants", label: t("Assistants"), icon: "robot", page: assistants.element },
    { id: "skills", label: t("Skills"), icon: "book", page: skills.element },
    { id: "plugins", label: t("Plugins"), icon: "plug", page: plugins.element },
    { id: "memory", label: t("Memory"), icon: "database", page: memory.element },
  ],
  () => chats.newChat(),
  save,
);

function save(): void {
  host.save({
    tab: tabs.current,
    draft: composer.input.value,
    model: composer.model.value,
    assistant: composer.assistant.value,
    instructions: composer.instructionsDraft,
    plan: composer.plan.draft,
    queued: composer.queue.messages,
  });
}

const app = document.getElementById("app") ?? document.body;
app.replaceChildren(tabs.element, live);
tabs.select(saved.tab ?? "chat", false);
wireBlocks(transcript.element, host);

function refreshAll(): void {
  transcript.reset();
  chats.refresh();
  composer.refresh();
  assistants.refresh();
  skills.refresh();
  plugins.refresh();
  memory.refresh();
}

/** Whether a change touched any of `fields` or added or removed a row. */
function shows(delta: RowsDelta<object>, ...fields: string[]): boolean {
  return delta.joined || fields.some((field) => delta.fields.has(field));
}

/**
 * Applies changed rows to the store, then to the views that show them, and only those: a view
 * that lists a table follows it when a field it shows changed or a row came or went.
 */
function rowsChanged(message: RowsChanged): void {
  switch (message.table) {
    case "items": {
      const delta = store.change("items", message.put, message.delete);
      for (const { row, before } of delta.put) transcript.put(row, before);
      for (const id of delta.deleted) transcript.delete(id);
      break;
    }
    case "conversations": {
      const delta = store.change("conversations", message.put, message.delete);
      if (shows(delta, "title")) chats.refresh();
      // Memories link to the conversation they came from while it is there.
      if (delta.joined) memory.refresh();
      if (delta.deleted.includes(store.chat) || delta.put.some(({ row }) => row.id === store.chat)) {
        // The composer shows the open conversation's switches (project instructions, Plan mode);
        // the transcript its plan's actions.
        composer.refresh();
        transcript.refresh();
      }
      break;
    }
    case "assistants": {
      const delta = store.change("assistants", message.put, message.delete);
      assistants.refresh();
      if (shows(delta, "name")) memory.refresh();
      if (shows(delta, "name", "source")) composer.refresh();
      break;
    }
    case "choices": {
      const delta = store.change("choices", message.put, message.delete);
      if (shows(delta, "name", "group", "note")) composer.refresh();
      // An assistant's line names its model.
      if (shows(delta, "name")) assistants.refresh();
      break;
    }
    case "contexts": {
      const delta = store.change("contexts", message.put, message.delete);
      if (delta.put.some(({ row }) => row.id === store.chat) || delta.deleted.includes(store.chat))
        composer.refresh();
      break;
    }
    case "skills":
      store.change("skills", message.put, message.delete);
      skills.refresh();
      break;
    case "plugins":
      store.change("plugins", message.put, message.delete);
      plugins.refresh();
      break;
    case "memories":
      store.change("memories", message.put, message.delete);
      memory.refresh();
      break;
  }
}

/** Applies one message from the host. */
function fromHost(message: HostMessage): void {
  switch (message.type) {
    case "snapshot":
      store.load(message);
      refreshAll();
      if (message.at) transcript.reveal(message.at);
      // A run that ended while the page reloaded: its queued message goes now.
      composer.queue.resume();
      break;
    case "opened":
      store.open(message.chat, message.items, message.blocks);
      transcript.reset();
      if (message.at) transcript.reveal(message.at);
      chats.refresh();
      composer.refresh();
      break;
    case "rows":
      rowsChanged(message);
      break;
    case "blocks": {
      const id = message.patch.key;
      // Blocks follow their item's row; a patch for an item of another conversation is not ours.
      if (!store.tables.items.has(id)) break;
      let text = store.blocks.get(id);
      if (!text) store.blocks.set(id, (text = new BlockText()));
      try {
        transcript.patched(id, text.apply(message.patch));
      } catch {
        // The replica missed a patch: the host sends everything again.
        host.post({ type: "ready" });
      }
      break;
    }
    case "running":
      if (message.running) store.running.add(message.chat);
      else store.running.delete(message.chat);
      // The next queued message of the conversation, answered after the one that just ended.
      if (!message.running) composer.queue.ended(message.chat);
      if (message.chat === store.chat) {
        transcript.running();
        composer.refresh();
      }
      chats.refresh();
      break;
    case "notice":
      composer.say(message.level, message.text);
      break;
    case "togglePlan":
      composer.plan.toggle();
      break;
    case "attached":
      composer.attach(message.files);
      break;
    case "suggestions":
      composer.suggested(message);
      break;
    case "prompts":
      composer.prompts(message);
      break;
    case "found":
      chats.foundChats(message.query, message.chats);
      break;
    case "configured":
      store.configured = message.configured;
      transcript.emptyChanged();
      break;
    case "image":
      imageAnswered(message);
      break;
    case "pending":
      pending.show(message.files);
      break;
    case "restoreQuestion":
      restoreAsked(message, host);
      break;
    case "restoreDone":
      restoreDone(message);
      break;
  }
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const data = event.data;
  if (data && typeof data === "object" && typeof (data as { type?: unknown }).type === "string") {
    fromHost(data as HostMessage);
  }
});

host.post({ type: "ready" });
