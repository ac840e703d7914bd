import vscode = require("vscode");

/** The status bar item: the current model, with a spinner while a run is going. */
export class Status implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    "tandem.status",
    vscode.StatusBarAlignment.Right,
    100,
  );
  private model = "";
  private running = 0;

  constructor() {
    this.item.name = vscode.l10n.t("Tandem");
    this.item.command = "tandem.selectModel";
    this.render();
    this.item.show();
  }

  setModel(name: string) {
    this.model = name;
    this.render();
  }

  setRunning(count: number) {
    this.running = count;
    this.render();
  }

  private render() {
    const icon = this.running ? "$(loading~spin)" : "$(hubot)";
    this.item.text = `${icon} ${this.model || vscode.l10n.t("No model")}`;
    this.item.tooltip = this.running
      ? vscode.l10n.t("Tandem is answering ({0} running). Click to choose the model.", this.running)
      : vscode.l10n.t("Tandem's model. Click to choose another.");
  }

  dispose() {
    this.item.dispose();
  }
}
