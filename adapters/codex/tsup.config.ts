import { defineConfig } from "tsup";
import { adapterConfig } from "../../tsup.config.base.ts";

// The hook bins and the installer bin are shared by every adapter (tsup.config.base.ts).
export default defineConfig(adapterConfig({ launcher: "CODEX" }));
