import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Installs, once per checkout, what the real-runner tests need from npm: each JS fixture's own
 * dependencies (vitest, jest, mocha) and the bun and deno binaries (npm packages that ship
 * them). Everything goes under node_modules/.cache, never into fixtures/. A failed install is
 * written down, and the tests that need it skip with that reason.
 */
export const CACHE = join(import.meta.dirname, "..", "node_modules", ".cache", "tailtest");
export const JS_FIXTURES = [
  "vitest",
  "jest",
  "mocha",
  "ava",
  "uvu",
  "jasmine",
  "tap",
  "tape",
  "monorepo/packages/web",
] as const;

export default function setup(): void {
  mkdirSync(CACHE, { recursive: true });
  for (const fixture of JS_FIXTURES) {
    const dir = join(CACHE, "fixtures", fixture);
    if (existsSync(join(dir, ".installed"))) continue;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(
      join(import.meta.dirname, "..", "fixtures", "runners", fixture, "package.json"),
      join(dir, "package.json"),
    );
    install(dir, [], `fixture ${fixture}`);
  }
  const tools = join(CACHE, "tools");
  if (!existsSync(join(tools, ".installed")) && !existsSync(join(tools, ".failed"))) {
    mkdirSync(tools, { recursive: true });
    writeFileSync(join(tools, "package.json"), '{"private":true}\n');
    install(tools, ["bun@1", "deno@2"], "bun and deno");
  }
}

function install(dir: string, packages: readonly string[], what: string): void {
  try {
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...packages], {
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 300_000,
    });
    writeFileSync(join(dir, ".installed"), "");
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    writeFileSync(join(dir, ".failed"), `npm install of ${what} failed: ${reason}\n`);
    process.stderr.write(
      `tailtest test setup: npm install of ${what} failed; tests that need it will skip (${reason})\n`,
    );
  }
}
