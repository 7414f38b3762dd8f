import type { Options } from "tsup";

/** Shared build options: every package ships ESM for Node 20.19+. */
export const baseConfig: Options = {
  format: ["esm"],
  target: "node20",
  platform: "node",
  dts: true,
  clean: true,
  sourcemap: false,
  splitting: false,
};
