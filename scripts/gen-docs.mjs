// Regenerates docs that come from code (`pnpm gen-docs`).
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const { renderCliReference, renderConfigReference } = await import(
  join(repo, "packages/cli/dist/index.js")
);
writeFileSync(join(repo, "docs/configuration.md"), renderConfigReference());
console.log("wrote docs/configuration.md");
writeFileSync(join(repo, "docs/cli.md"), renderCliReference());
console.log("wrote docs/cli.md");
