import { describe, expect, it } from "vitest";
import { namedScripts, pythonConsoleScripts } from "./python-scripts.ts";

describe("pythonConsoleScripts: a manifest's commands and their entry points' modules", () => {
  it.each([
    [
      "pyproject.toml",
      '[project]\nname = "nbstripout"\n\n[project.scripts]\nnbstripout = "nbstripout._nbstripout:main"\n# old = "x:y"\nnb-tool="nbstripout.cli:run"\n\n[tool.x]\na = "b:c"\n',
      { nbstripout: "nbstripout._nbstripout", "nb-tool": "nbstripout.cli" },
    ],
    ["pyproject.toml", '[tool.poetry.scripts]\ngreet = "greet.cli:main"\n', { greet: "greet.cli" }],
    [
      "setup.cfg",
      "[metadata]\nname = greet\n\n[options.entry_points]\nconsole_scripts =\n    greet = greet.cli:main\n    greet-admin=greet.admin:run\ngui_scripts =\n    gg = greet.gui:main\n",
      { greet: "greet.cli", "greet-admin": "greet.admin" },
    ],
    [
      "setup.py",
      "setup(\n    name='greet',\n    entry_points={\n        'console_scripts': [\n            'greet = greet.cli:main',\n            \"greet2=greet.two:main\",\n        ],\n    },\n)\n",
      { greet: "greet.cli", greet2: "greet.two" },
    ],
    ["pyproject.toml", '[project]\nname = "plain"\n', {}],
    ["setup.py", "setup(name='plain', version='1.0')\n", {}],
  ])("%s", (name, text, scripts) => {
    expect(pythonConsoleScripts(name, text)).toEqual(scripts);
  });
});

describe("namedScripts: the commands a file's strings start", () => {
  const scripts = { nbstripout: "nbstripout._nbstripout", "nb-tool": "nbstripout.cli" };
  it("finds a command where a command line starts, not inside another word or prose", () => {
    expect(namedScripts(["nbstripout"], scripts)).toEqual(["nbstripout"]);
    expect(namedScripts(["diff <( nbstripout -t a.ipynb )", "x"], scripts)).toEqual(["nbstripout"]);
    expect(namedScripts(["nb-tool --install", "cat a | nbstripout"], scripts)).toEqual([
      "nb-tool",
      "nbstripout",
    ]);
    expect(
      namedScripts(
        ["nbstripout.py", "my-nbstripout", "-m nbstripout", "strip with nbstripout", "nbstripout2"],
        scripts,
      ),
    ).toEqual([]);
  });
});
