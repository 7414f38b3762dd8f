import { runInstallerProgram, type InstallerIO, type InstallerSpec } from "@tailtest/cli/installer";
import packageJson from "../package.json" with { type: "json" };
import { initProject, initUser, uninstallProject, uninstallUser } from "./setup.ts";

export const INSTALLER: InstallerSpec = {
  name: "tailtest-claude-code",
  version: packageJson.version,
  description: "Install tailtest's hooks into a project's Claude Code settings.",
  initDescription:
    "add tailtest's hooks to .claude/settings.json (idempotent; keeps every other setting)",
  rootHelp: "project root, where .claude/ and node_modules/ are",
  initFooter: "Claude Code loads the hooks in its next session (/hooks lists them).",
  init: initProject,
  uninstall: uninstallProject,
  user: { init: () => initUser(), uninstall: () => uninstallUser() },
};

/** Runs the installer and returns its exit code; only the bin (cli's adapter-bin.ts) exits. */
export function runInstaller(argv: readonly string[], io: InstallerIO): Promise<number> {
  return runInstallerProgram(INSTALLER, argv, io);
}
