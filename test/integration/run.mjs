// The real-VS-Code harness: packages Tandem, installs the VSIX into code-server's VS Code 1.139, opens the
// workbench in headless Chromium with mocha as the extension tests, and exits with the tests' result.
// Prints `vscode: N passed, N failed` and writes .artifacts/vscode-results.json.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  cpSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { format } from "node:util";
import { join } from "node:path";
import { chromium } from "playwright-core";
import {
  root,
  ensureCodeServer,
  freePort,
  installVsix,
  startServer,
  chromiumArgs,
  chromiumPath,
  requireChromium,
} from "../../scripts/vscode.mjs";

const results = join(root, ".artifacts/vscode-results.json");
const PERSON = "@@person ";

/** The frame of Tandem's panel (VS Code nests a webview two frames deep). */
async function panelFrame(page) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator("#app textarea")
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error("the Tandem panel is not on screen");
}

/** What the person does, as a test asks: type into the panel, read it, click a notification's button. */
async function act(page, request) {
  if (request.action === "panelSend") {
    const frame = await panelFrame(page);
    const box = frame.locator("#app textarea").first();
    await box.fill(request.text);
    await box.press("Enter");
    return true;
  }
  if (request.action === "panelPick") {
    // The person types `@` and a query in the message box, then moves to the option and presses Enter.
    const frame = await panelFrame(page);
    const box = frame.locator("#app textarea").first();
    await box.focus();
    await page.keyboard.type(`@${request.query}`, { delay: 20 });
    const search = frame.getByRole("combobox", { name: /Search files/ });
    const option = frame.getByRole("option").filter({ hasText: request.option }).first();
    await option.waitFor({ timeout: 30_000 });
    const id = await option.getAttribute("id");
    for (let i = 0; i < 50 && (await search.getAttribute("aria-activedescendant")) !== id; i++)
      await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    return frame.locator("#app .chips.attached").innerText();
  }
  if (request.action === "panelSlash") {
    // The person types `/` and part of a name, chooses the prompt file in the menu with the keyboard,
    // types its arguments and sends; gives what the box held when it was sent.
    const frame = await panelFrame(page);
    const box = frame.locator("#app textarea").first();
    await box.fill("");
    await box.focus();
    await page.keyboard.type(`/${request.query}`, { delay: 20 });
    const option = frame
      .getByRole("option")
      .filter({ hasText: `/${request.option}` })
      .first();
    await option.waitFor({ timeout: 30_000 });
    const id = await option.getAttribute("id");
    for (let i = 0; i < 50 && (await box.getAttribute("aria-activedescendant")) !== id; i++)
      await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.keyboard.type(request.args, { delay: 10 });
    const sent = await box.inputValue();
    await page.keyboard.press("Enter");
    return sent;
  }
  if (request.action === "panelPaste") {
    // A paste event as the browser fires it for an image in the clipboard (headless Chromium has no
    // system clipboard to paste from): a PNG file in the event's DataTransfer.
    const frame = await panelFrame(page);
    const box = frame.locator("#app textarea").first();
    await box.evaluate((element, base64) => {
      // Runs in the page: its globals are the browser's.
      const page = globalThis;
      const bytes = Uint8Array.from(page.atob(base64), (c) => c.charCodeAt(0));
      const data = new page.DataTransfer();
      data.items.add(new page.File([bytes], "image.png", { type: "image/png" }));
      const paste = new page.ClipboardEvent("paste", {
        clipboardData: data,
        bubbles: true,
        cancelable: true,
      });
      element.dispatchEvent(paste);
    }, request.png);
    const chip = frame.locator("#app .chips.attached").getByText(/Pasted image/);
    await chip.waitFor({ timeout: 20_000 });
    return chip.innerText();
  }
  if (request.action === "panelText") {
    const frame = await panelFrame(page);
    return frame.locator("#app").innerText();
  }
  if (request.action === "panelControl") {
    // A control of the panel found by its role and accessible name, as a person finds it: clicked,
    // filled and sent with Enter, or an option chosen. `nth` -1 is the last of that name; `within`
    // keeps to the transcript's item whose text holds it (an item is an article).
    const frame = await panelFrame(page);
    let scope = frame;
    if (request.within) {
      // Scoped to the transcript's item showing `within`; off-screen items are not laid out
      // (content-visibility), so the person scrolls to it first.
      scope = frame.locator("#app article", { hasText: request.within }).first();
      await scope.waitFor({ state: "attached", timeout: 20_000 });
      await scope.evaluate((element) => element.scrollIntoView({ block: "center" }));
    }
    const all = scope.getByRole(request.role, { name: request.name, exact: true });
    const control = request.nth === -1 ? all.last() : all.nth(request.nth ?? 0);
    await control.waitFor({ timeout: 20_000 });
    if (request.fill !== undefined) {
      await control.fill(request.fill);
      await control.press("Enter");
    } else if (request.choose !== undefined) await control.selectOption({ label: request.choose });
    else await control.click();
    return true;
  }
  if (request.action === "chatAnswer") {
    // The Chat view's last answer, each folded part of it (its steps, its references) opened as a
    // person opens it, one at a time, until none is left folded.
    const response = page.locator(".interactive-session .interactive-response").last();
    await response.waitFor({ timeout: 20_000 });
    for (let i = 0; i < 6; i++) {
      const folded = response.locator('[aria-expanded="false"]');
      if (!(await folded.count())) break;
      await folded.first().click();
    }
    return response.innerText();
  }
  if (request.action === "chatFollowups") {
    // The follow-ups offered after the Chat view's last answer (shown above its input box).
    const followups = page.locator(
      ".interactive-session .interactive-input-followups, .interactive-session .interactive-session-followups",
    );
    await followups.first().waitFor({ timeout: 20_000 });
    return (await followups.allInnerTexts()).join("\n");
  }
  if (request.action === "chatText") {
    // The Chat view's last answer as it shows, nothing unfolded (its buttons included).
    const response = page.locator(".interactive-session .interactive-response").last();
    await response.waitFor({ timeout: 20_000 });
    return response.innerText();
  }
  if (request.action === "notificationButton") {
    // Toasts or the notification centre (VS Code under test keeps notifications in the centre).
    const item = page.locator(".notification-list-item", { hasText: request.text ?? "" }).first();
    const list = page.locator(".notifications-center .notifications-list-container");
    const deadline = Date.now() + (request.waitMs ?? 20_000);
    while (!(await item.isVisible().catch(() => false))) {
      if (Date.now() > deadline) {
        // Say what the centre held instead: a refusal or another question explains a missing one.
        const shown = await page.locator(".notification-list-item-message").allInnerTexts();
        const centre = await list.isVisible().catch(() => "?");
        await page
          .screenshot({ path: join(root, ".artifacts", `notification-${request.id}.png`) })
          .catch(() => {});
        throw new Error(
          `no notification holding "${request.text}" within ${request.waitMs ?? 20_000} ms; centre open: ${centre}; notifications: ${JSON.stringify(shown)}`,
        );
      }
      // A new notification goes to the top of the centre's list, which a long list may have scrolled
      // out of view: the person scrolls up, as they would to find it.
      const box = await list.boundingBox().catch(() => null);
      if (box) {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.wheel(0, -10_000);
      }
      await page.waitForTimeout(250);
    }
    const message = await item.locator(".notification-list-item-message").innerText();
    await item.locator(".monaco-button", { hasText: request.label }).first().click();
    return message;
  }
  if (request.action === "quickInput") {
    // The input box a command opened (Set API Key's password box): the person types and presses Enter.
    const box = page.locator(".quick-input-widget .quick-input-box input").first();
    await box.waitFor({ timeout: 20_000 });
    const title = await page
      .locator(".quick-input-widget .quick-input-title")
      .innerText()
      .catch(() => "");
    await box.fill(request.text);
    await box.press("Enter");
    return title;
  }
  if (request.action === "screenshot") {
    await page.screenshot({ path: join(root, ".artifacts", request.name) });
    return true;
  }
  throw new Error(`unknown action ${request.action}`);
}
mkdirSync(join(root, ".artifacts"), { recursive: true });
rmSync(results, { force: true });

const cleanups = [];
const cleanup = async () => {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch {
      /* keep cleaning */
    }
  }
};
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, async () => {
    await cleanup();
    process.exit(130);
  });
}

/** How many windows' extension hosts run now among the processes of the group `group` (the server's). */
function extensionHosts(group) {
  let count = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      // The process group is the fifth field of stat, after the name in parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== group) continue;
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=extensionHost")) count++;
    } catch {
      // The process ended while it was read.
    }
  }
  return count;
}

/**
 * Leaves the window on screen and waits until its extension host has ended (up to 60 s): a window that
 * opens while the last one's still shuts down may read its workspace file before the server answers,
 * and a workspace of folders then opens with none.
 */
async function leaveWindow(page, group) {
  await page.goto("about:blank");
  if (!existsSync("/proc")) return;
  const deadline = Date.now() + 60_000;
  while (extensionHosts(group) > 0 && Date.now() < deadline) await page.waitForTimeout(250);
  if (extensionHosts(group) > 0)
    console.error("the last window's extension host still runs after 60 s; going on");
}

/**
 * A workspace of two folders under `base` (`first` and `second`, each with a file the other lacks)
 * and the `.code-workspace` file that names them; gives the file's path.
 */
function twoFolders(base) {
  mkdirSync(join(base, "first"), { recursive: true });
  mkdirSync(join(base, "second"), { recursive: true });
  writeFileSync(join(base, "first", "notes-a.txt"), "marker-7f3 in the first folder\n");
  writeFileSync(join(base, "second", "notes-b.txt"), "marker-7f3 in the second folder\n");
  writeFileSync(join(base, "second", "x.txt"), "one\ntwo\n");
  const file = join(base, "two.code-workspace");
  writeFileSync(file, JSON.stringify({ folders: [{ path: "first" }, { path: "second" }] }, null, 2));
  return file;
}

/**
 * An extension of test/fixtures (`folder`), packed into RUN as a VSIX to install beside Tandem: the baselines
 * Tandem's activation is measured against with the same activation event — the empty one always, the one that
 * registers what Tandem registers when the benchmark opens its windows (TANDEM_WINDOWS) — and the model of
 * another extension's that the local-only tests choose.
 */
function fixtureExtension(run, folder) {
  const out = join(run, `${folder}.vsix`);
  const packed = spawnSync(
    process.execPath,
    [
      join(root, "node_modules/@vscode/vsce/vsce"),
      "package",
      "--no-dependencies",
      "--allow-missing-repository",
      "--skip-license",
      "-o",
      out,
    ],
    { cwd: join(root, "test/fixtures", folder), stdio: "pipe", encoding: "utf8" },
  );
  if (packed.status !== 0) throw new Error(`packing ${folder} failed:\n${packed.stderr}`);
  return out;
}

/** Writes the results file: the counts, the figures the tests measured, and each window's own figures. */
function finish(passed, failed, note, metrics = {}, windows = [], failures = []) {
  if (note) console.error(note);
  writeFileSync(results, JSON.stringify({ passed, failed, metrics, windows, failures }));
  console.log(`integration tests in VS Code — ${passed} passed, ${failed} failed`);
}

/**
 * The demo model served as `npm start` serves it (scripts/start.mjs): the runtime installed into
 * .vscode-test/demo once, the random-weight GGUF made in RUN, the server on 127.0.0.1.
 */
async function demoModel(run) {
  const dir = join(root, ".vscode-test/demo");
  const { ensureRuntime } = await import("../../scripts/demo-model/runtime.mjs");
  ensureRuntime(dir, { quiet: true });
  const { makeGguf } = await import("../../scripts/demo-model/make-gguf.mjs");
  const { serveDemo, DEMO_MODEL } = await import("../../scripts/demo-model/serve.mjs");
  const served = await serveDemo({ dir, modelPath: makeGguf(join(run, `${DEMO_MODEL}.gguf`)) });
  return { ...served, model: DEMO_MODEL };
}

/**
 * Moves the history history-fill wrote (HISTORY/store) into the store folder it named (HISTORY/folder.txt),
 * once no window holds that folder's lock: the page leaves the workbench and the lock's process ends or
 * lets go. Gives a failed phase when that cannot be done.
 */
async function moveHistory(page, history) {
  const named = join(history, "folder.txt");
  if (!existsSync(named))
    return { passed: 0, failed: 1, note: "history: history-fill did not write the history (run it first)" };
  const folder = readFileSync(named, "utf8");
  await page.goto("about:blank");
  const lock = join(folder, "journal.lock");
  const deadline = Date.now() + 60_000;
  for (;;) {
    let pid;
    try {
      pid = JSON.parse(readFileSync(lock, "utf8")).pid;
    } catch (e) {
      if (e?.code === "ENOENT") break;
    }
    let alive = typeof pid === "number";
    if (alive) {
      try {
        process.kill(pid, 0);
      } catch {
        alive = false;
      }
    }
    if (!alive && pid !== undefined) break;
    if (Date.now() > deadline)
      return { passed: 0, failed: 1, note: `history: ${lock} was still held after 60 s` };
    await new Promise((r) => setTimeout(r, 250));
  }
  rmSync(lock, { force: true });
  rmSync(join(folder, "journal.jsonl"), { force: true });
  rmSync(join(folder, "chats"), { recursive: true, force: true });
  cpSync(join(history, "store"), folder, { recursive: true });
  return undefined;
}

/**
 * BENCH history-vscode: what opening a workspace with a large history costs against an empty one (the first
 * phase's figures); gives why it fails its bound (opening at most 5 times the empty one, the panel within 10 s).
 */
function historyBench(m) {
  if (m.history_open_ms === undefined) return undefined;
  const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : "?");
  const round = (v) => (v === undefined ? "?" : Math.round(v));
  console.log(
    `BENCH history-vscode open_ms=${round(m.history_open_ms)} open_vs_empty=${ratio(m.history_open_ms, m.empty_open_ms)} panel_ms=${round(m.history_panel_ms)} panel_vs_empty=${ratio(m.history_panel_ms, m.empty_panel_ms)} list_ms=${round(m.history_list_ms)} chat_ms=${round(m.history_chat_ms)} empty_open_ms=${round(m.empty_open_ms)} empty_panel_ms=${round(m.empty_panel_ms)}`,
  );
  if (m.history_panel_ms > 10_000)
    return `history: the panel took ${round(m.history_panel_ms)} ms to show (bound 10 s)`;
  if (m.empty_open_ms > 0 && m.history_open_ms > 5 * m.empty_open_ms)
    return `history: opening took ${round(m.history_open_ms)} ms, over 5 times the empty store's ${round(m.empty_open_ms)} ms`;
  return undefined;
}

async function main() {
  requireChromium();
  ensureCodeServer();
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const vsix = join(root, `tandem-${pkg.version}.vsix`);
  const packed = spawnSync(process.execPath, ["scripts/package.mjs"], { cwd: root, stdio: "inherit" });
  if (packed.status !== 0 || !existsSync(vsix)) throw new Error("packaging the VSIX failed");
  // The tests' own bundle (out/integration) comes from the development build.
  const built = spawnSync(process.execPath, ["esbuild.mjs"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("the build failed");

  const run = mkdtempSync(join(tmpdir(), "tandem-vscode-"));
  cleanups.push(() => rmSync(run, { recursive: true, force: true }));
  const dirs = { user: join(run, "user"), server: join(run, "server"), extensions: join(run, "extensions") };
  const workspace = join(run, "workspace");
  cpSync(join(root, "test/integration/workspace"), workspace, { recursive: true });
  installVsix(vsix, dirs);
  installVsix(fixtureExtension(run, "empty-extension"), dirs);
  // A model of another extension's in vscode.lm, as Copilot's are (local-only.test).
  installVsix(fixtureExtension(run, "elsewhere-extension"), dirs);
  if (process.env.TANDEM_WINDOWS) installVsix(fixtureExtension(run, "registering-extension"), dirs);
  const installed = readdirSync(dirs.extensions).find((d) => d.startsWith("tandem-dev.tandem-"));
  if (!installed) throw new Error("the VSIX did not install");
  const extensionPath = join(dirs.extensions, installed);

  const demo = await demoModel(run);
  cleanups.push(demo.stop);

  const port = await freePort();
  const tmp = join(run, "tmp");
  mkdirSync(tmp);
  const server = await startServer(port, dirs, {
    extra: ["--enable-smoke-test-driver", "--disable-workspace-trust"],
    env: { TMPDIR: tmp },
    log: (s) => process.env.TANDEM_VERBOSE && process.stderr.write(s),
  });
  cleanups.push(server.stop);

  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  cleanups.push(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const harnessDir = join(run, "harness");
  mkdirSync(harnessDir);
  const historyDir = join(run, "history");
  mkdirSync(historyDir);
  const env = {
    TANDEM_WORKSPACE: workspace,
    TANDEM_PERSON_DIR: harnessDir,
    TANDEM_HISTORY_DIR: historyDir,
    TANDEM_TEST_GREP: process.env.TANDEM_TEST_GREP ?? "",
    TANDEM_DEMO_URL: demo.url,
    TANDEM_DEMO_MODEL: demo.model,
    ...JSON.parse(process.env.TANDEM_TEST_ENV || "{}"),
  };
  // Each phase's tests end by calling codeAutomationExit; the next phase waits for a fresh call.
  let exited;
  await page.exposeFunction("codeAutomationExit", (code) => exited?.(code));
  await page.exposeFunction("codeAutomationLog", (type, args) => {
    const line = format(...(Array.isArray(args) ? args : [args]));
    // A test asks the harness to act as the person in the workbench (see suite/person.ts).
    if (line.startsWith(PERSON)) {
      const request = JSON.parse(line.slice(PERSON.length));
      act(page, request).then(
        (value) => writeFileSync(join(harnessDir, `${request.id}.json`), JSON.stringify({ value })),
        (e) =>
          writeFileSync(
            join(harnessDir, `${request.id}.json`),
            JSON.stringify({ error: String(e?.message ?? e) }),
          ),
      );
      return;
    }
    // The workbench's own chatter (sign-in probes of built-in agents) is noise here.
    if (
      line.trim() &&
      (process.env.TANDEM_VERBOSE ||
        !/^\[(AgentHost|RemoteAgentHostProtocol|ChatModelSelection|AccountPolicyGate)[:\]]/.test(line))
    )
      console.log(line);
  });
  const limit = Number(process.env.TANDEM_VSCODE_TIMEOUT_MS || 10 * 60_000);

  // Each server's process group (its windows' extension hosts are in it); whether a window was opened yet.
  const groups = new Map([[port, server.child.pid]]);
  let opened = false;

  /** Opens the workbench with the tests of `phase`; resolves with its counts. */
  async function phase(name, at = port, folder = workspace) {
    if (opened) await leaveWindow(page, groups.get(at));
    opened = true;
    const remote = (p) => `vscode-remote://127.0.0.1:${at}${p}`;
    const file = join(run, `result-${name}.json`);
    const payload = [
      ["extensionDevelopmentPath", remote(extensionPath)],
      ["extensionTestsPath", remote(join(root, "out/integration/index.js"))],
      [
        "extensionEnvironment",
        JSON.stringify({
          ...env,
          TANDEM_WORKSPACE: folder,
          TANDEM_TEST_RESULT: file,
          TANDEM_TEST_PHASE: name,
        }),
      ],
    ];
    const done = new Promise((resolve) => (exited = resolve));
    // A `.code-workspace` file opens as a workspace of its folders (multi-root), anything else as one folder.
    const opens = folder.endsWith(".code-workspace") ? "workspace" : "folder";
    const url = `http://127.0.0.1:${at}/?${opens}=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(url);
    const code = await Promise.race([done, new Promise((r) => setTimeout(() => r("timeout"), limit))]);
    await page.screenshot({ path: join(root, `.artifacts/vscode-${name}.png`) }).catch(() => {});
    if (code === "timeout")
      return { passed: 0, failed: 1, note: `${name}: the tests did not finish within ${limit / 1000} s` };
    if (!existsSync(file))
      return {
        passed: 0,
        failed: 1,
        note: `${name}: the tests exited with ${code} and wrote no result file`,
      };
    const result = JSON.parse(readFileSync(file, "utf8"));
    for (const f of result.failures ?? []) console.error(`  failed: ${f}`);
    if (code !== 0 && result.failed === 0) result.failed = 1;
    return result;
  }

  // The first phase works as a person would; the second opens the window again (a reload) and checks
  // what survived it; the third opens a workspace of two folders. A run that greps for some tests has
  // the first phase only, unless TANDEM_TEST_PHASES names the phases to run (`multiroot`, `first,reload`).
  const only = process.env.TANDEM_TEST_PHASES?.split(",").filter(Boolean);
  const wanted = (name) => (only ? only.includes(name) : name === "first" || !process.env.TANDEM_TEST_GREP);
  const phases = [];
  // Activation happens once a window, and one window's figure is at the mercy of whatever else the machine
  // does at that moment: BENCH package opens the first phase's window TANDEM_WINDOWS times.
  const windows = Math.max(1, Number(process.env.TANDEM_WINDOWS) || 1);
  if (wanted("first"))
    for (let i = 1; i <= windows; i++) phases.push(await phase(i === 1 ? "first" : `first-${i}`));
  if (wanted("reload")) phases.push(await phase("reload"));
  if (wanted("multiroot")) phases.push(await phase("multiroot", port, twoFolders(join(run, "multiroot"))));
  if (wanted("history-fill") || wanted("history")) {
    // A workspace with a large history: history-fill writes it with Tandem's store into HISTORY_DIR and
    // names this workspace's store folder; once its window is gone, the history goes there, and
    // history opens the workspace again.
    const folder = join(run, "history-workspace");
    cpSync(join(root, "test/integration/workspace"), folder, { recursive: true });
    if (wanted("history-fill")) phases.push(await phase("history-fill", port, folder));
    if (wanted("history")) {
      const moved = await moveHistory(page, historyDir);
      phases.push(moved ?? (await phase("history", port, folder)));
    }
  }
  if (wanted("untrusted")) {
    // Last, a VS Code that asks about workspace trust, on a folder nobody trusted yet.
    server.stop();
    const untrusted = join(run, "untrusted-workspace");
    cpSync(join(root, "test/integration/workspace"), untrusted, { recursive: true });
    const port2 = await freePort();
    const server2 = await startServer(
      port2,
      { ...dirs, user: join(run, "user2"), server: join(run, "server2") },
      {
        extra: ["--enable-smoke-test-driver"],
        env: { TMPDIR: tmp },
        log: (s) => process.env.TANDEM_VERBOSE && process.stderr.write(s),
      },
    );
    cleanups.push(server2.stop);
    groups.set(port2, server2.child.pid);
    phases.push(await phase("untrusted", port2, untrusted));
  }
  const slow = historyBench(Object.assign({}, ...phases.map((p) => p.metrics ?? {})));
  if (slow) phases.push({ passed: 0, failed: 1, note: slow });
  const sum = (key) => phases.reduce((n, p) => n + p[key], 0);
  const note =
    phases
      .map((p) => p.note)
      .filter(Boolean)
      .join("; ") || undefined;
  const measured = phases.map((p) => p.metrics ?? {});
  const failures = phases.flatMap((p) => p.failures ?? []);
  finish(sum("passed"), sum("failed"), note, Object.assign({}, ...measured), measured, failures);
}

main()
  .catch((e) => finish(0, 1, `vscode harness: ${e.message}`))
  .finally(async () => {
    await cleanup();
    const { failed } = JSON.parse(readFileSync(results, "utf8"));
    process.exit(failed ? 1 : 0);
  });
