/** JSON with comments and trailing commas (tsconfig's dialect) → a value, or undefined. */
export function parseJsonc(text: string): unknown {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '"') {
      let k = i + 1;
      while (k < text.length && text.charAt(k) !== '"') k += text.charAt(k) === "\\" ? 2 : 1;
      out += text.slice(i, k + 1);
      i = k + 1;
    } else if (c === "/" && text.charAt(i + 1) === "/") {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end;
    } else if (c === "/" && text.charAt(i + 1) === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      out += c;
      i += 1;
    }
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1")) as unknown;
  } catch {
    return undefined;
  }
}
