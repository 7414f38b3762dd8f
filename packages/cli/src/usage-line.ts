/** A usage error as one line, with where to look (commander may say it over two). */
export function oneLine(text: string, write: (text: string) => void): void {
  write(`${text.trim().replace(/\s*\n\s*/g, " ")} (--help lists the options)\n`);
}
