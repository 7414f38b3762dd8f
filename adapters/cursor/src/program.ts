import { runInstallerProgram, type InstallerIO, type InstallerSpec } from "@tailtest/cli/installer";
import packageJson from "../package.json" with { type: "json" };
import { initProject, initUser, uninstallProject, uninstallUser } from "./setup.ts";

/** What `init` tells the user last: when the hooks start, and where stop does not fire. */
export const INIT_FOOTER = [
  "Cursor picks the hooks up in its next agent session; its Hooks output channel shows what they print.",
  "`cursor-agent -p` (print mode) does not fire stop, so tests run at the end of a turn only in the IDE and the cursor-agent TUI.",
].join("\n");

export const INSTALLER: InstallerSpec = {
  name: "tailtest-cursor",
  version: packageJson.version,
  description: "Install tailtest's hooks into a project's Cursor hooks.json.",
  initDescription:
    "add tailtest's hooks to .cursor/hooks.json (idempotent; keeps every other hook and key)",
  rootHelp: "project root, where .cursor/ and node_modules/ are",
  initFooter: INIT_FOOTER,
  init: initProject,
  uninstall: uninstallProject,
  user: { init: () => initUser(), uninstall: () => uninstallUser() },
};

/** Runs the installer and returns its exit code; only the bin (cli's adapter-bin.ts) exits. */
export function runInstaller(argv: readonly string[], io: InstallerIO): Promise<number> {
  return runInstallerProgram(INSTALLER, argv, io);
}
