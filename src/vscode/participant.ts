import * as vscode from "vscode";

/** The @tandem participant in VS Code's Chat view. */
export function registerParticipant(context: vscode.ExtensionContext) {
  const participant = vscode.chat.createChatParticipant("tandem.chat", async (_request, _chat, stream) => {
    stream.markdown(
      vscode.l10n.t(
        "No model is configured yet. Add an endpoint under **Settings › Tandem › Endpoints**, or set `AI_URL` and `AI_MODEL` before starting VS Code.",
      ),
    );
    return { metadata: { configured: false } };
  });
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, "media", "tandem.svg");
  context.subscriptions.push(participant);
  return participant;
}
