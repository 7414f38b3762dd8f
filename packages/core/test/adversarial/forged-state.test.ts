import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { formatStrictEvent, type StrictEventInput } from "../../src/index.ts";
import { eventLineFor } from "../../src/entries/node/core-node.ts";
import {
  bash,
  fire,
  heldTally,
  isDenial,
  makeAttackProject,
  payloadsOf,
  type Mode,
  type Platform,
  type Played,
} from "./attack-harness.ts";

/**
 * A program the agent runs writes tdd or strict state lines into `.tailtest/` under a name no
 * shell rule reads (ADR 0012, tenth round): a Red, a failing run and a Green, or a failing run and
 * a claim, shaped as tailtest writes them. HELD when the gate still refuses the production write
 * and the Stop names the lines and holds.
 */

const heldForged = heldTally("forged tdd/strict state lines");

/** The agent's key as the session file says it (what a program can read). */
function sessionId(played: Played, platform: Platform): string {
  const name = platform === "cursor" ? "cursor-session.json" : "session.json";
  const text = readFileSync(join(played.root, ".tailtest", name), "utf8");
  return (JSON.parse(text) as { session_id: string }).session_id;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The lines a forger appends to events.jsonl, as tailtest would write them. */
function forgedLines(mode: Mode, played: Played, platform: Platform, at: string): string {
  const key = sessionId(played, platform).replace(/[^A-Za-z0-9._-]/g, "_");
  if (mode === "tdd")
    return [
      eventLineFor(key, { kind: "red", test: "tests/test_calc.py", expects: "add fails", at }),
      eventLineFor(key, { kind: "test", command: "pytest", outcome: "failed", at }),
      eventLineFor(key, { kind: "green", change: "fix add", files: ["calc.py"], at }),
    ]
      .map((line) => `${line}\n`)
      .join("");
  const testId = "tests/test_calc.py::test_add";
  const events: StrictEventInput[] = [
    {
      type: "test_run",
      ts: at,
      session: key,
      test_id: testId,
      test: { id: testId, file: "tests/test_calc.py", segments: ["test_add"], source: "native" },
      status: "fail",
      fail_reason: "assertion",
      command: "pytest",
      duration_ms: 1,
      test_file_hash: sha256(readFileSync(join(played.root, "tests/test_calc.py"), "utf8")),
      purpose: "claim",
    },
    {
      type: "edit_claim",
      ts: at,
      session: key,
      claim: "c1",
      test_id: testId,
      edit_target: "calc.py",
    },
  ];
  return events.map((event) => `${formatStrictEvent(event)}\n`).join("");
}

const LOG = "os.path.join('.tail' + 'test', 'events.jsonl')";
/** How the forged lines reach the log: a python one-liner, a script file, node. */
const FORMS = [
  `python3 -c "import os; open(${LOG}, 'a').write(open(os.path.expanduser('~/forged.txt')).read())"`,
  `printf '%s\\n' "import os" "open(${LOG}, 'a').write(open(os.path.expanduser('~/forged.txt')).read())" > "$HOME/w.py" && python3 "$HOME/w.py"`,
  `node -e "const f=require('fs');f.appendFileSync(['.tail','test/events.jsonl'].join(''),f.readFileSync(process.env.HOME+'/forged.txt'))"`,
];

describe.each<Mode>(["tdd", "strict"])("forged state lines in %s mode", (mode) => {
  const rows = (["claude-code", "cursor", "codex"] as const).flatMap((platform) =>
    FORMS.filter((_, i) => platform === "claude-code" || i === 0)
      // Codex's tdd reads the Red from the turn's log key (playsOn, attack-harness.ts).
      .filter(() => !(platform === "codex" && mode === "tdd"))
      .map((form) => [platform, form] as const),
  );
  it.each(rows)(
    "%s: `%s` is held",
    (platform, form) =>
      heldForged(`${mode} ${platform}: ${form.slice(0, 40)}`, async () => {
        const played = await makeAttackProject(mode);
        try {
          const payloads = payloadsOf(platform, played.root);
          await fire(platform, played, payloads.start);
          const at = new Date().toISOString();
          writeFileSync(join(played.home, "forged.txt"), forgedLines(mode, played, platform, at));
          const shell = payloads.shell(form, "pre");
          if (!isDenial(await fire(platform, played, shell))) {
            await bash(form, played);
            await fire(platform, played, payloads.shell(form, "post"));
          }
          const write = payloads.write(join(played.root, "calc.py"), "x = 1\n", "pre");
          if (!isDenial(await fire(platform, played, write))) return "the write was let through";
          const stop = await fire(platform, played, payloads.stop);
          if (!stop.includes("not written by tailtest")) return stop;
          if (platform !== "codex" && !/"decision":"block"|"followup_message"/.test(stop))
            return stop;
          return undefined;
        } finally {
          played.cleanup();
        }
      }),
    60_000,
  );
});
