/**
 * Attacks on what a command the person allows is handed in its environment beyond secret-looking
 * names: VS Code's git credential bridge (with it, `git credential fill` in the command has VS Code's
 * git extension hand out the person's git credentials) and passwords inside variables' values.
 */
import type { Attack } from "./attack";
import { printedEnvironment } from "./attacks-review";

export const attacks: Attack[] = [
  {
    name: "a command the person allows prints VS Code's git credential bridge (VSCODE_GIT_IPC_HANDLE)",
    attempt: () => printedEnvironment("VSCODE_GIT_IPC_HANDLE", "/run/user/1000/vscode-git-0a1b2c3d4e.sock"),
  },
  {
    name: "a command the person allows is handed VS Code's askpass as GIT_ASKPASS",
    attempt: () =>
      printedEnvironment("GIT_ASKPASS", "/usr/share/code/resources/app/extensions/git/dist/askpass.sh"),
  },
  {
    name: "a command the person allows is handed VS Code's askpass node (VSCODE_GIT_ASKPASS_NODE)",
    attempt: () => printedEnvironment("VSCODE_GIT_ASKPASS_NODE", "/usr/share/code/code-askpass-node"),
  },
  {
    name: "a command the person allows prints a database URL's password (DATABASE_URL=postgres://user:secret@host/db)",
    attempt: () =>
      printedEnvironment("DATABASE_URL", "postgres://app:db-secret-0123456789@db.internal:5432/app"),
  },
  {
    name: "a command the person allows prints a package index's token in its URL (PIP_INDEX_URL=https://user:token@…)",
    attempt: () =>
      printedEnvironment("PIP_INDEX_URL", "https://ci:pypi-token-0123456789@pypi.example.com/simple"),
  },
  {
    name: "a command the person allows is handed VS Code's command-line bridge (VSCODE_IPC_HOOK_CLI), with which `code` drives the editor",
    attempt: () => printedEnvironment("VSCODE_IPC_HOOK_CLI", "/run/user/1000/vscode-ipc-0a1b2c3d.sock"),
  },
];
