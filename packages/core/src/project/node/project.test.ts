import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitAll, copyFixture, gitSync, makeProject } from "@tailtest/test-utils";
import { describe, expect, it } from "vitest";
import { SessionStateSchema } from "../../state/session.ts";
import { inspectEdit, openProject, queueEdit, toProjectPath } from "./project.ts";

const BILLING = `import requests


class Billing:
    def charge(self, customer, amount):
        if amount <= 0:
            raise ValueError("amount")
        if customer.blocked:
            return None
        response = requests.post("https://pay.example/charge", json={"amount": amount})
        self.db.session.commit()
        return response
`;

describe("inspectEdit: a Go file behind a version constraint its module never builds", () => {
  // google/btree's shape: the generic copy behind go1.18, the pre-generics one behind !go1.18.
  const tree = (go: string) =>
    makeProject({
      "go.mod": `module example.com/btree\n\ngo ${go}\n`,
      "btree_generic.go":
        "//go:build go1.18\n// +build go1.18\n\npackage btree\n\nfunc Len() int { return 1 }\n",
      "btree.go":
        "//go:build !go1.18\n// +build !go1.18\n\npackage btree\n\nfunc Len() int { return 1 }\n",
      "btree_test.go":
        'package btree\n\nimport "testing"\n\nfunc TestLen(t *testing.T) { _ = Len() }\n',
    });

  it("skips the copy no allowed toolchain compiles and queues the one every build has", () => {
    const project = tree("1.18");
    try {
      const opened = openProject(project.root);
      expect(inspectEdit(opened, "btree.go").verdict).toMatchObject({
        queue: false,
        rule: "go-build-version",
      });
      expect(inspectEdit(opened, "btree_generic.go").verdict).toMatchObject({ queue: true });
    } finally {
      project.cleanup();
    }
  });

  it("queues the old copy when the module still accepts a toolchain before go1.18", () => {
    const project = tree("1.17");
    try {
      expect(inspectEdit(openProject(project.root), "btree.go").verdict).toMatchObject({
        queue: true,
      });
    } finally {
      project.cleanup();
    }
  });
});

describe("inspectEdit on a real project", () => {
  it("queues a new python file with its runner, test path, depth and the queued note", async () => {
    const project = copyFixture("runners/pytest-pyproject");
    try {
      await commitAll(project.root);
      project.write("billing.py", BILLING);
      const opened = openProject(project.root);
      const insight = inspectEdit(opened, join(project.root, "billing.py"));
      expect(insight).toMatchObject({
        path: "billing.py",
        verdict: { queue: true, language: "python" },
        status: "new",
        runner: { id: "pytest", package_dir: "" },
        target: { kind: "file", path: "tests/test_billing.py", exists: false },
      });
      expect(insight.depth).toMatchObject({ depth: "thorough", score: 12, override: true });
      const queued = await queueEdit(opened, insight);
      expect(queued?.note).toBe(
        "tailtest: billing.py queued (new, python). write test to tests/test_billing.py. runner: pytest. Complexity: thorough (billing: +4 billing +3 HTTP +3 DB +2 branches = 12 scenarios). Generate ~12 scenarios.",
      );
      const session = SessionStateSchema.parse(
        JSON.parse(readFileSync(join(project.root, ".tailtest/session.json"), "utf8")),
      );
      expect(session.pending_files).toEqual([
        {
          path: "billing.py",
          language: "python",
          status: "new",
          runner: "pytest",
          package_dir: "",
          test_path: "tests/test_billing.py",
          test_exists: false,
          depth: "thorough",
        },
      ]);
      expect(session.runners.map((runner) => runner.id)).toEqual(["pytest"]);
    } finally {
      project.cleanup();
    }
  });

  it("a file tracked by git is existing, and its test is found", async () => {
    const project = copyFixture("runners/pytest-pyproject");
    try {
      await commitAll(project.root);
      const insight = inspectEdit(openProject(project.root), "calc.py");
      expect(insight).toMatchObject({
        status: "existing",
        target: { path: "tests/test_calc.py", exists: true },
      });
      const queued = await queueEdit(openProject(project.root), insight);
      expect(queued?.note).toBe(
        "tailtest: calc.py queued (existing, python). update existing test at tests/test_calc.py. runner: pytest.",
      );
    } finally {
      project.cleanup();
    }
  });

  it("queues a tracked source a .gitignore pattern matches, as git still tracks it", async () => {
    // graphql/dataloader: `index.js` in .gitignore is for release files at the root, while the
    // package's one module is the tracked src/index.js, tested from src/__tests__/.
    const project = makeProject({
      "package.json": JSON.stringify({
        scripts: { test: "jest src" },
        devDependencies: { jest: "^29" },
      }),
      ".gitignore": "node_modules\ndist\n\n# Generated with release scripts\nindex.js\n",
      "src/index.js": "module.exports = function load(key) { return key; };\n",
      "src/__tests__/load.test.js": "const load = require('..');\ntest('x', () => {});\n",
    });
    try {
      await commitAll(project.root);
      // Tracked in spite of the pattern, as a file added before it (or with `git add -f`) is.
      gitSync(project.root, "add", "-f", "src/index.js");
      gitSync(project.root, "commit", "-qm", "the module", "--no-gpg-sign");
      project.write("index.js", "module.exports = require('./src');\n");
      const opened = openProject(project.root);
      expect(inspectEdit(opened, "src/index.js")).toMatchObject({
        verdict: { queue: true, language: "javascript" },
        status: "existing",
      });
      // An untracked file the pattern matches stays ignored.
      expect(inspectEdit(opened, "index.js").verdict).toMatchObject({
        kind: "ignored",
        reason: "ignored by .gitignore (index.js)",
      });
    } finally {
      project.cleanup();
    }
  });

  it("skips tests, ignored, generated and outside files with a reason, and queues nothing", async () => {
    const project = makeProject({
      "pytest.ini": "[pytest]\n",
      ".tailtest-ignore": "legacy/\n",
      "legacy/old.py": "x = 1\n",
      "tests/test_a.py": "def test_a(): pass\n",
      "gen/api.py": "# @generated by openapi\nx = 1\n",
    });
    const outside = join(tmpdir(), `tailtest-outside-${process.pid}.py`);
    writeFileSync(outside, "x = 1\n");
    mkdirSync(join(project.root, "src"));
    symlinkSync(outside, join(project.root, "src/link.py"));
    try {
      const opened = openProject(project.root);
      const reasons = [
        "legacy/old.py",
        "tests/test_a.py",
        "gen/api.py",
        outside,
        "src/link.py",
        "../x.py",
      ].map((file) => inspectEdit(opened, file).verdict);
      expect(reasons.map((verdict) => [verdict.kind, verdict.reason])).toEqual([
        ["ignored", "ignored by .tailtest-ignore (legacy/)"],
        ["test", "a python test file (by name)"],
        ["generated", "generated code (header marker)"],
        ["outside", "outside the project"],
        ["outside", "outside the project"],
        ["outside", "outside the project"],
      ]);
      expect(await queueEdit(opened, inspectEdit(opened, "tests/test_a.py"))).toBeUndefined();
    } finally {
      project.cleanup();
    }
  });

  it("runs a test folder's data file with the tests beside it, and nothing else's", () => {
    const project = makeProject({
      "pytest.ini": "[pytest]\n",
      "tests/test_a.py": "def test_a(): pass\n",
      "tests/data/expected.json": "{}\n",
      "settings.json": "{}\n",
    });
    try {
      const opened = openProject(project.root);
      const data = inspectEdit(opened, "tests/data/expected.json");
      expect([data.runOnly, data.verdict.language, data.runner?.id]).toEqual([
        true,
        "python",
        "pytest",
      ]);
      const settings = inspectEdit(opened, "settings.json");
      expect([settings.runOnly, settings.verdict.kind]).toEqual([undefined, "config"]);
    } finally {
      project.cleanup();
    }
  });

  it("calls a Python package's template a template, not an asset", () => {
    const project = makeProject({
      "pytest.ini": "[pytest]\n",
      "app/__init__.py": "from flask import render_template\n",
      "app/templates/blog/index.html": "<h1>{{ title }}</h1>\n",
      "app/static/site.css": "h1 {}\n",
      "tests/test_app.py": "import app\n",
    });
    try {
      const opened = openProject(project.root);
      const template = inspectEdit(opened, "app/templates/blog/index.html");
      expect([template.runOnly, template.verdict.kind, template.verdict.reason]).toEqual([
        true,
        "asset",
        "a template, rendered by name (blog/index.html) from app/templates/",
      ]);
      expect(inspectEdit(opened, "app/static/site.css").verdict.reason).toBe(
        "an asset or data file",
      );
    } finally {
      project.cleanup();
    }
  });

  it("runs an edited page of examples pytest collects as doctests", () => {
    const project = makeProject({
      "tox.ini": '[pytest]\naddopts = --doctest-glob "*.rst"\ntestpaths = docs tests\n',
      "tests/test_a.py": "def test_a(): pass\n",
      "docs/introduction.rst": "    >>> 1 + 1\n    2\n",
      "HISTORY.rst": "1.0\n",
    });
    try {
      const opened = openProject(project.root);
      const page = inspectEdit(opened, "docs/introduction.rst");
      expect([page.runOnly, page.verdict.language, page.runner?.id]).toEqual([
        true,
        "python",
        "pytest",
      ]);
      const history = inspectEdit(opened, "HISTORY.rst");
      expect([history.runOnly, history.verdict.kind]).toEqual([undefined, "docs"]);
    } finally {
      project.cleanup();
    }
  });

  it("names a component by the language of its script block", async () => {
    const project = makeProject({
      "package.json": '{"scripts":{"test":"vitest run"},"devDependencies":{"vitest":"^3.0.0"}}\n',
      "src/Counter.vue": '<script setup lang="ts">\nconst count: number = 1;\n</script>\n',
      "src/Badge.svelte": "<script lang='ts'>\n  export let label: string;\n</script>\n",
      "src/Plain.vue": "<template><p>hi</p></template>\n<script>\nexport default {};\n</script>\n",
    });
    try {
      const opened = openProject(project.root);
      const languages = [];
      for (const path of ["src/Counter.vue", "src/Badge.svelte", "src/Plain.vue"]) {
        const note = (await queueEdit(opened, inspectEdit(opened, path)))?.note ?? "";
        languages.push(/queued \(\w+, (\w+)\)/.exec(note)?.[1]);
      }
      expect(languages).toEqual(["typescript", "typescript", "javascript"]);
    } finally {
      project.cleanup();
    }
  });

  it("a bad config runs on defaults and reports one line per problem", () => {
    const project = makeProject({ ".tailtest/config.json": '{"depth":"deep","mode":"strict"}' });
    try {
      const opened = openProject(project.root);
      expect(opened.config).toMatchObject({ depth: "standard", mode: "strict" });
      expect(opened.configProblems).toEqual([
        'tailtest: .tailtest/config.json: "depth" is "deep"; expected one of simple, standard, thorough, adversarial. Using the default for "depth" ("standard").',
      ]);
    } finally {
      project.cleanup();
    }
  });

  it("the configured depth is never lowered", () => {
    const project = makeProject({
      ".tailtest/config.json": '{"depth":"thorough"}',
      "pytest.ini": "",
      "util.py": "x = 1\n",
    });
    try {
      const insight = inspectEdit(openProject(project.root), "util.py");
      expect(insight.depth).toMatchObject({ depth: "thorough", override: false, note: undefined });
    } finally {
      project.cleanup();
    }
  });

  it("resolves relative and absolute paths to project paths", () => {
    const project = makeProject({ "a.py": "" });
    try {
      const opened = openProject(project.root);
      expect(toProjectPath(opened, "a.py")).toBe("a.py");
      expect(toProjectPath(opened, join(project.root, "src", "b.py"))).toBe("src/b.py");
      expect(toProjectPath(opened, "/etc/passwd")).toBeUndefined();
      expect(toProjectPath(opened, project.root)).toBeUndefined();
    } finally {
      project.cleanup();
    }
  });
});
