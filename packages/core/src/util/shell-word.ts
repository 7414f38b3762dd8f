/**
 * A word of a shell command as an agent or a person pastes it: bare when a POSIX shell reads it
 * back unchanged (`[A-Za-z0-9_./@%+=:,-]`), else single-quoted. The one rule for every command
 * tailtest prints (a gate's `tailtest claim`, `red` and `green`, a rerun, a selection's test
 * command) and for the command line a script's argv shell-out is read as, which seven modules
 * each kept a copy of.
 */
export function shellWord(word: string): string {
  return isPlainShellWord(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** Whether a shell reads `word` back unchanged without quotes. */
export function isPlainShellWord(word: string): boolean {
  return /^[\w./@%+=:,-]+$/.test(word);
}
