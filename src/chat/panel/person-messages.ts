/**
 * The person's messages from the panel: one written in the composer (its `@` references read as
 * they are now, a `/` prompt file started), one queued and sent now while its conversation's answer
 * runs (it joins that run: `Runner.steer`), and "Act on this plan". Each is durable before its run
 * starts, in a new conversation when none is open.
 */
import { fileRef } from "../../protocol/file-refs";
import { t } from "../../protocol/l10n";
import type { FileRef, PanelMessage } from "../../protocol/messages";
import { reason } from "../../protocol/reason";
import type { PromptFiles } from "../assistants";
import { asked, conversation } from "../make";
import type { Item } from "../row-schemas";
import type { Runner } from "../runner";
import type { Store } from "../store";
import type { PanelContext } from "./panel-context";
import { actOn, editPlan, setMode } from "./plan-actions";
import { promptEntries, startPrompt, type Started } from "./slash-prompts";
import type { ViewHost } from "./view-host";

/** The messages the person sends from one panel. */
export class PersonMessages {
  constructor(
    private readonly store: Store,
    private readonly runner: Runner | undefined,
    private readonly host: ViewHost,
    private readonly context: PanelContext,
    /** The conversation the panel shows ("" a new one). */
    private readonly shown: () => string,
    /** Shows the conversation `chat` in the panel. */
    private readonly openChat: (chat: string) => void,
  ) {}

  /** A message written in the composer. */
  async written(m: Extract<PanelMessage, { type: "send" }>): Promise<void> {
    // The references are read now: the message carries what they held when it was sent.
    const context = await this.context.resolve(m.context ?? []);
    const files = [...m.files, ...context];
    const started = await this.startPrompt(m.text, files, m.model);
    await this.send(
      m.chat,
      m.text,
      started?.files ?? files,
      started?.model ?? m.model,
      m.assistant,
      m.instructions,
      started?.prompt,
      m.mode,
    );
  }

  /** The person's message: a new conversation when none is open; durable before its run starts. */
  async send(
    chat: string,
    text: string,
    files: FileRef[],
    model: string,
    assistant: string,
    instructions?: boolean,
    prompt?: Item["prompt"],
    mode?: "plan",
  ): Promise<string> {
    let id = chat;
    if (!id || !this.store.get("conversations", id)) {
      const agent = assistant || this.store.rows("assistants")[0]?.id || "";
      const row = conversation(agent, text.replace(/\s+/g, " ").trim().slice(0, 60));
      // The switch as the person set it before the conversation existed.
      this.store.put("conversations", {
        ...row,
        ...(instructions === false ? { instructions } : {}),
        ...(mode ? { mode } : {}),
      });
      id = row.id;
    }
    if (id !== this.shown()) this.openChat(id);
    // The kind of a file is the host's to say, from its name, whatever the panel sent.
    const attached = files.map((f) => fileRef(f.path, f.name));
    const item = asked(text, id, model, attached);
    await this.store.putDurable("items", prompt ? { ...item, prompt } : item);
    return id;
  }

  /**
   * A queued message sent now: it joins the run of its conversation going on (see `Runner.steer`).
   * With no run going on (it ended meanwhile), or as a `/` command or prompt file, it is an ordinary message.
   */
  async steer(m: Extract<PanelMessage, { type: "steer" }>): Promise<void> {
    const runner = this.runner;
    if (!runner?.running(m.chat) || m.text.trimStart().startsWith("/"))
      return this.written({ ...m, type: "send", assistant: "" });
    const files = [...m.files, ...(await this.context.resolve(m.context ?? []))];
    const attached = files.map((f) => fileRef(f.path, f.name));
    // A run that ended meanwhile leaves it a message like any other (Runner.steer).
    await runner.steer(asked(m.text, m.chat, m.model, attached));
  }

  /** "Act on this plan" or "Edit plan" on the answer's text item KEY; a failure is said in the composer. */
  async plan(action: "act" | "editPlan", key: string): Promise<void> {
    try {
      if (action === "editPlan") return await editPlan(this.store, this.host, key);
      const { chat, text } = await actOn(this.store, this.host, key);
      setMode(this.store, chat, "act");
      await this.send(chat, text, [], "", "");
    } catch (error) {
      this.host.send({ type: "notice", level: "warning", text: reason(error) });
    }
  }

  /** Sends the panel the prompt files of the composer's `/` menu. */
  async listPrompts(): Promise<void> {
    this.host.send({ type: "prompts", prompts: promptEntries(await this.prompts()) });
  }

  /** The prompt files the person can start here (none when the editor reads none). */
  private async prompts(): Promise<PromptFiles> {
    try {
      return (await this.host.prompts?.()) ?? { prompts: [], skipped: [] };
    } catch (error) {
      this.host.refused?.(`prompt files: ${reason(error)}`);
      return { prompts: [], skipped: [] };
    }
  }

  /**
   * What a message starting a prompt file (`/name args`) becomes, telling the person what the file
   * asked for and did not get; undefined when it starts none or the file's text cannot be kept.
   */
  private async startPrompt(text: string, files: FileRef[], model: string): Promise<Started | undefined> {
    if (!text.trimStart().startsWith("/")) return undefined;
    try {
      const started = await startPrompt(
        text,
        files,
        model,
        await this.prompts(),
        await this.host.choices(),
        this.context,
        this.context.editor,
      );
      if (started?.notes.length)
        this.host.send({ type: "notice", level: "warning", text: started.notes.join("\n") });
      return started;
    } catch (error) {
      this.host.send({
        type: "notice",
        level: "warning",
        text: t("Tandem did not start the prompt file: {0}. The message was sent as written.", reason(error)),
      });
      return undefined;
    }
  }
}
