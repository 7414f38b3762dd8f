import { describe, expect, it } from "vitest";
import { sfcScripts } from "./sfc-scripts.ts";

describe("sfcScripts", () => {
  it("joins a Vue component's <script> and <script setup> blocks, leaving the template out", () => {
    const text = [
      '<script lang="ts">',
      "import { defineComponent } from 'vue'",
      "</script>",
      '<script setup lang="ts">',
      "import { filters } from '../utils/filters'",
      "</script>",
      "<template><p>{{ filters.date(x) }}</p></template>",
      "<style scoped>p { color: red }</style>",
    ].join("\n");
    const script = sfcScripts(text);
    expect(script.jsx).toBe(false);
    expect(script.code).toContain("import { defineComponent } from 'vue'");
    expect(script.code).toContain("import { filters } from '../utils/filters'");
    expect(script.code).not.toContain("template");
    expect(script.code).not.toContain("color");
  });

  it("reads Svelte's module script, a src attribute, a tsx block; skips commented-out ones", () => {
    const text = [
      '<script context="module">export const prerender = true;</script>',
      "<!-- <script>import old from './old.js'</script> -->",
      "<script src='./logic.ts'></script>",
      '<script lang="tsx">import Row from "./Row";</script>',
      "<h1>{name}</h1>",
    ].join("\n");
    const script = sfcScripts(text);
    expect(script.jsx).toBe(true);
    expect(script.code).toContain("export const prerender = true;");
    expect(script.code).toContain('import "./logic.ts";');
    expect(script.code).toContain('import Row from "./Row";');
    expect(script.code).not.toContain("old.js");
  });

  it("gives no code for a component without a script", () => {
    expect(sfcScripts("<template><p>hi</p></template>\n").code).toBe("");
  });
});
