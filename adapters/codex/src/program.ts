import { runInstallerProgram, type InstallerIO, type InstallerSpec } from "@tailtest/cli/installer";
import packageJson from "../package.json" with { type: "json" };
import { initProject, initUser, uninstallProject, uninstallUser } from "./setup.ts";

/**
 * What `init` prints last. Codex skips untrusted hooks without a word, so the two trust steps
 * are spelled out with this project's own path (printed, never written to a file).
 */
export function trustFooter(root: string): string {
  return [
    "Codex skips these hooks, silently, until two things are trusted:",
    "  1. the project: accept Codex's trust prompt when it opens here (codex exec --trust for a",
    "     non-interactive run), or put this in ~/.codex/config.toml ($CODEX_HOME/config.toml):",
    `       [projects.${JSON.stringify(root)}]`,
    '       trust_level = "trusted"',
    "  2. the hooks: run /hooks in the Codex TUI and trust tailtest's hooks",
    "     (automation: codex exec --dangerously-bypass-hook-trust).",
    "Editing a hook's command un-trusts it; init always writes the same commands.",
  ].join("\n");
}

/** What `init --user` prints last: user-level hooks need no project trust, only hook trust. */
export const USER_TRUST_FOOTER = [
  "Codex skips these hooks, silently, until they are trusted: run /hooks in the Codex TUI and",
  "trust tailtest's hooks (automation: codex exec --dangerously-bypass-hook-trust).",
  "They run in every project; `tailtest-codex opt-out` in a project leaves it alone.",
  "Editing a hook's command un-trusts it; init --user always writes the same commands.",
].join("\n");

export const INSTALLER: InstallerSpec = {
  name: "tailtest-codex",
  version: packageJson.version,
  description: "Install tailtest's hooks into a project's Codex configuration (.codex/).",
  initDescription:
    "add tailtest's hooks to .codex/hooks.json, or to an existing [hooks] table in .codex/config.toml (idempotent; keeps everything else)",
  rootHelp: "project root, where .codex/ and node_modules/ are",
  initFooter: trustFooter,
  init: initProject,
  uninstall: uninstallProject,
  user: { init: () => initUser(), uninstall: () => uninstallUser(), footer: USER_TRUST_FOOTER },
};

/** Runs the installer and returns its exit code; only the bin (cli's adapter-bin.ts) exits. */
export function runInstaller(argv: readonly string[], io: InstallerIO): Promise<number> {
  return runInstallerProgram(INSTALLER, argv, io);
}
