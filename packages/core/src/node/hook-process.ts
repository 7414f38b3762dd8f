/** What one hook call prints and how it exits; adapters build it, `runHookProcess` emits it. */
export interface HookOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The whole life of a hook bin: read stdin, answer, print, set the exit code. An adapter's
 * hook.ts is one call to this. `noOpinion` is the platform's answer when stdin cannot even be
 * read (Cursor needs `{}`, the others nothing).
 */
export async function runHookProcess(
  answer: (stdin: string) => Promise<HookOutput>,
  noOpinion: string,
): Promise<void> {
  let output: HookOutput;
  try {
    output = await answer(await readStdin());
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    output = {
      stdout: noOpinion,
      stderr: `tailtest: skipped this hook: ${message}\n`,
      exitCode: 0,
    };
  }
  process.stdout.write(output.stdout);
  process.stderr.write(output.stderr);
  process.exitCode = output.exitCode;
}
