/** The side panel's entry: builds the page, follows the host's messages and wires what the person does. */
// First: the translations are set before any module makes a text.
import "./l10n";
// Importing the stylesheet makes esbuild write webview.css beside webview.js.
import "./style.css";
import type { HostMessage, RowsChanged } from "../src/protocol/messages";
import type { Item } from "../src/protocol/rows";
import { BlockText } from "./blocks";
import { ChatList } from "./list";
import { Composer } from "./composer";
import { h } from "./dom";
import { emptyState } from "./empty";
import { connect } from "./host";
import type { Panel } from "./items";
import { MemoryPage, assistantsPage, pluginsPage, skillsPage } from "./pages";
import { PanelState } from "./state";
import { Tabs } from "./tabs";
import { Transcript } from "./transcript";
import { wireBlocks } from "./actions";
import { imageAnswered } from "./images";
import { PendingBar } from "./pending";
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

/** Applies changed rows to the store, then to the views that show them. */
function rowsChanged(message: RowsChanged): void {
  const previous = new Map<string, Item>();
  if (message.table === "items") {
    for (const row of message.put) {
      const before = store.tables.items.get(row.id);
      if (before) previous.set(row.id, before);
    }
  }
  store.change(message.table, message.put, message.delete);
  switch (message.table) {
    case "items":
      for (const row of message.put) if (row.chat === store.chat) transcript.put(row, previous.get(row.id));
      for (const id of message.delete) transcript.delete(id);
      break;
    case "conversations":
      chats.refresh();
      memory.refresh();
      composer.refresh();
      break;
    case "assistants":
      assistants.refresh();
      plugins.refresh();
      memory.refresh();
      composer.refresh();
      break;
    case "choices":
    case "contexts":
      composer.refresh();
      assistants.refresh();
      break;
    case "skills":
      skills.refresh();
      break;
    case "plugins":
      plugins.refresh();
      break;
    case "memories":
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
      // A run that ended while the page reloaded: its queued message goes now.
      composer.queue.resume();
      break;
    case "opened":
      store.open(message.chat, message.items, message.blocks);
      transcript.reset();
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
