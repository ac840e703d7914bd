/**
 * The person at the keyboard, for tests that run in the extension host: each request goes to the harness
 * (through the console, which the workbench forwards), which acts in the real workbench with Playwright and
 * writes the outcome to a file this side reads.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

let next = 0;

async function person<T>(action: string, args: Record<string, unknown> = {}, ms = 30_000): Promise<T> {
  const dir = process.env.TANDEM_PERSON_DIR;
  if (!dir) throw new Error("TANDEM_PERSON_DIR is not set: run the tests through test/integration/run.mjs");
  const id = `${process.pid}-${++next}`;
  console.log(`@@person ${JSON.stringify({ id, action, ...args })}`);
  const file = join(dir, `${id}.json`);
  const deadline = Date.now() + ms;
  // The harness writes the answer with a plain write: a file seen half-written is read again.
  let answer: { value?: T; error?: string } | undefined;
  while (!answer) {
    if (existsSync(file)) {
      try {
        answer = JSON.parse(readFileSync(file, "utf8")) as { value?: T; error?: string };
        break;
      } catch {
        // Not all of it yet.
      }
    }
    if (Date.now() > deadline) throw new Error(`the harness did not do "${action}" within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const { value, error } = answer;
  if (error) throw new Error(`the harness could not do "${action}": ${error}`);
  return value as T;
}

/** Types `text` into the panel's composer and presses Enter. */
export const panelSend = (text: string) => person<boolean>("panelSend", { text });
/** The text the panel shows. */
export const panelText = () => person<string>("panelText");
/**
 * Acts on the panel's control of `role` named `name` (the `nth`, -1 the last; inside the transcript's
 * item showing the text `within`, scrolled to, when given): clicks it, or fills it with `fill` and
 * presses Enter, or chooses the option labelled `choose`.
 */
export const panelControl = (
  role: "button" | "textbox" | "combobox" | "tab",
  name: string,
  how: { nth?: number; fill?: string; choose?: string; within?: string } = {},
) => person<boolean>("panelControl", { role, name, ...how });
/** Clicks the button `label` of the notification that says `text` (waiting up to `waitMs`); gives the notification's message. */
export const clickNotification = (text: string, label: string, waitMs = 20_000) =>
  person<string>("notificationButton", { text, label, waitMs }, waitMs + 10_000);
/** Types `text` into the input box on screen and presses Enter; gives the box's title. */
export const typeInInputBox = (text: string) => person<string>("quickInput", { text });
/** The text of the Chat view's last answer, its folded parts (steps, references) opened. */
export const chatAnswer = () => person<string>("chatAnswer");
/** The text of the Chat view's last answer as it shows, nothing unfolded (its buttons included). */
export const chatText = () => person<string>("chatText");
/** The follow-ups the Chat view offers after its last answer, as they show. */
export const chatFollowups = () => person<string>("chatFollowups");
/** Saves a screenshot of the workbench under .artifacts/. */
export const screenshot = (name: string) => person<boolean>("screenshot", { name });
/** Types `@` and `query` in the panel's message box and chooses the option showing `option`; gives the chips. */
export const panelPick = (query: string, option: string) =>
  person<string>("panelPick", { query, option }, 60_000);
/** Types `/` and `query` in the panel's message box, chooses the prompt file `/option`, types `args` and sends; gives what was sent. */
export const panelSlash = (query: string, option: string, args: string) =>
  person<string>("panelSlash", { query, option, args }, 60_000);
/** Pastes the PNG `png` (base64) into the panel's message box; gives the chip that appeared. */
export const panelPaste = (png: string) => person<string>("panelPaste", { png });
