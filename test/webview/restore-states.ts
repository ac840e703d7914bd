/**
 * The states of "Restore…" under the person's messages, for the checks every state passes (axe in
 * each theme, the pseudo-locale's fit at 300px): the choices, the status while the host compares the
 * files, its question, "Restoring…", and its result, done or failed.
 */
import type { Panel } from "./page";
import { item, snapshot } from "./stream";

/**
 * Walks `panel` (fresh, opened by the caller) through every restore state, calling `look` in each.
 * `words` gives a text as the panel shows it (the English text, or its pseudo-locale version).
 */
export async function restoreStates(
  panel: Panel,
  words: (english: string) => string,
  look: (state: string) => Promise<void>,
): Promise<void> {
  const { page } = panel;
  await panel.send(
    snapshot({
      chat: "c1",
      restore: true,
      items: [
        item("u1", "user", { text: "Refactor the parser" }),
        item("u1.0000", "text", { text: "Done." }),
        item("u2", "user", { text: "Older question about tests" }),
        item("u2.0000", "text", { text: "They pass." }),
      ],
    }),
  );
  const first = page.locator("article", { hasText: "Refactor the parser" });
  const second = page.locator("article", { hasText: "Older question about tests" });
  const restore = words("Restore…");

  await first.getByRole("button", { name: restore }).click();
  await first.getByRole("button", { name: words("Restore files") }).waitFor();
  await look("restore choices");

  // The first message compares its files; the second is asked its question.
  await first.getByRole("button", { name: words("Restore files") }).click();
  await first.getByRole("status").waitFor();
  await second.getByRole("button", { name: restore }).click();
  await second.getByRole("button", { name: words("Restore both") }).click();
  const question = words("Restore {0} files to how they were before {1}?")
    .replace("{0}", "2")
    .replace("{1}", "“Older question about tests”");
  await panel.send({ type: "restoreQuestion", item: "u2", ask: "q1", question });
  await second.getByRole("alertdialog").waitFor();
  await look("restore: comparing, and the question");

  // The second restores after the person's yes; the first is refused.
  await second
    .getByRole("alertdialog")
    .getByRole("button", { name: words("Restore"), exact: true })
    .click();
  await second.getByRole("status").waitFor();
  const why = words("Nothing was restored: {0}").replace(
    "{0}",
    words("That message is no longer in the conversation."),
  );
  await panel.send({ type: "restoreDone", item: "u1", ok: false, text: why });
  await first.getByRole("alert").waitFor();
  await look("restoring, and a restore refused");

  const said = words("Restored {0} files to how they were before {1}.")
    .replace("{0}", "2")
    .replace("{1}", "“Older question about tests”");
  await panel.send({ type: "restoreDone", item: "u2", ok: true, text: said });
  await second.locator(".restore-result").waitFor();
  await look("restore done");
}
