/**
 * Terminal conventions shared by every command: colours only for a terminal (or when forced),
 * never with `NO_COLOR`; a progress line on stderr that redraws itself on a terminal and is one
 * plain line otherwise.
 */

type Env = Readonly<Record<string, string | undefined>>;

/**
 * `NO_COLOR` set to anything but "" (no-color.org: an empty value is as if unset). The one rule
 * for colours and for the progress line's redraws, which are ANSI sequences too.
 */
export function refusesColour(env: Env): boolean {
  return (env["NO_COLOR"] ?? "") !== "";
}

/**
 * Whether stdout gets ANSI colours: never when `NO_COLOR` refuses them (it wins), always when
 * `FORCE_COLOR` is set to anything but "", "0" or "false", else only when stdout is a terminal.
 */
export function useColour(env: Env, stdoutIsTerminal: boolean): boolean {
  if (refusesColour(env)) return false;
  const force = env["FORCE_COLOR"];
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return stdoutIsTerminal;
}

/** Whether the progress line redraws itself in place: stderr is a terminal and `NO_COLOR` allows it. */
export function useLiveProgress(env: Env, stderrIsTerminal: boolean): boolean {
  return stderrIsTerminal && !refusesColour(env);
}

export interface ProgressIO {
  stderr: (text: string) => void;
  /** stderr is a terminal: the line redraws itself with the elapsed seconds. */
  interactive: boolean;
}

export interface Progress {
  /** Called with runner output: nothing to draw per chunk, the timer redraws. */
  tick: () => void;
  stop: () => void;
}

/** `running <label>` on stderr while something long runs. */
export function startProgress(label: string, io: ProgressIO): Progress {
  const started = Date.now();
  if (!io.interactive) {
    io.stderr(`running ${label}\n`);
    return { tick: () => undefined, stop: () => undefined };
  }
  const draw = () =>
    io.stderr(`\r\u001b[2Krunning ${label} ${Math.round((Date.now() - started) / 1000)}s`);
  draw();
  const timer = setInterval(draw, 1000);
  return {
    tick: () => undefined,
    stop: () => {
      clearInterval(timer);
      io.stderr("\r\u001b[2K");
    },
  };
}
