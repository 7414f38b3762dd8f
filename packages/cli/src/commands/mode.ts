import { confirmMode } from "@tailtest/core/node";
import { rootOrRefuse } from "../project-root.ts";

/**
 * `tailtest mode confirm`: the person confirms the mode `.tailtest/config.json` says now, and
 * every session file takes it (a session otherwise keeps a stricter mode it started in, and
 * every end of a turn says so; ADR 0012). One line out, exit 0; one line on stderr, exit 1 when
 * the config does not say a mode.
 */
export async function runModeConfirm(
  options: { root?: string },
  io: { cwd: string; stdout: (text: string) => void; stderr: (text: string) => void },
): Promise<number> {
  const root = rootOrRefuse(options.root, io);
  if (root === undefined) return 2;
  try {
    const { mode, was } = await confirmMode(root);
    const from = [...new Set(was)];
    io.stdout(
      from.length === 0
        ? `tailtest: the sessions already run in ${mode} mode; nothing to confirm.\n`
        : `tailtest: confirmed ${mode} mode (the sessions kept ${from.join(", ")} until now).\n`,
    );
    return 0;
  } catch (error) {
    io.stderr(`tailtest: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
