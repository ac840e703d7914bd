import * as vscode from "vscode";
import { typeInInputBox } from "./person";

/**
 * Sets the API key of `endpoint` as the person does: "Tandem: Set API Key" for that endpoint, the key typed
 * into its password box (an empty key removes it). Gives the box's title.
 */
export async function setKeyAsThePerson(endpoint: string, key: string): Promise<string> {
  const done = vscode.commands.executeCommand("tandem.setApiKey", endpoint);
  const title = await typeInInputBox(key);
  await done;
  return title;
}
