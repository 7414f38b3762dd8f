import { describe, expect, it } from "vitest";
import { parsePatchFiles, patchEffects } from "./apply-patch.ts";

describe("parsePatchFiles", () => {
  it("reads the recorded Codex add-file patch", () => {
    const patch =
      "*** Begin Patch\n*** Add File: src/billing.py\n+def charge(amount):\n+    return round(amount * 1.2, 2)\n*** End Patch\n";
    expect(parsePatchFiles(patch)).toEqual([{ path: "src/billing.py", change: "add" }]);
  });

  it("takes every header kind, moves included, and ignores hunk lines that look alike", () => {
    const patch = [
      "*** Begin Patch",
      "*** Update File: src/a.ts",
      "@@ export function a",
      "-*** Add File: not/a/header.ts",
      "+  return 2;",
      "*** Update File: src/old.ts",
      "*** Move to: src/new.ts",
      "@@",
      " x",
      "*** Delete File: src/gone.ts",
      "*** Add File: src/with space.ts\r",
      "+x",
      "*** End Patch",
    ].join("\n");
    const files = parsePatchFiles(patch);
    expect(files).toEqual([
      { path: "src/a.ts", change: "update" },
      { path: "src/old.ts", change: "update", movedTo: "src/new.ts" },
      { path: "src/gone.ts", change: "delete" },
      { path: "src/with space.ts", change: "add" },
    ]);
    expect(patchEffects(files)).toEqual({
      written: ["src/a.ts", "src/new.ts", "src/with space.ts"],
      deleted: ["src/old.ts", "src/gone.ts"],
      // Only an Add File is a file that did not exist: a move's target is the old file renamed.
      created: ["src/with space.ts"],
    });
  });

  it("finds nothing in text that is not a patch", () => {
    expect(parsePatchFiles("echo hello > out.txt")).toEqual([]);
    expect(parsePatchFiles("*** Add File: \n")).toEqual([]);
  });
});

describe("indented headers", () => {
  it("are read as Codex reads them (it trims each header line)", () => {
    const patch = "*** Begin Patch\n  *** Update File: src/a.py\n@@\n-x\n+y\n*** End Patch\n";
    expect(parsePatchFiles(patch).map((file) => file.path)).toEqual(["src/a.py"]);
  });
});
