import { ConfigSchema, DEFAULT_CONFIG } from "@tailtest/core";
import * as z from "zod";

interface JsonSchemaNode {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchemaNode;
  properties?: Record<string, JsonSchemaNode>;
  propertyNames?: JsonSchemaNode;
  additionalProperties?: JsonSchemaNode | boolean;
}

/** docs/configuration.md, generated from the zod schema so the two cannot drift. */
export function renderConfigReference(): string {
  const schema = z.toJSONSchema(ConfigSchema, {
    io: "input",
    unrepresentable: "any",
  }) as JsonSchemaNode;
  const rows: string[] = [];
  walk(schema.properties ?? {}, "", rows);
  return [
    "# Configuration",
    "",
    "<!-- Generated from ConfigSchema by `pnpm gen-docs`; a test fails when this file is stale. -->",
    "",
    "tailtest reads `.tailtest/config.json` in your project. Every field is optional. A bad value",
    "is reported in one line that names the field and the accepted values, and that field uses",
    "its default; the rest of the file still applies. Unknown fields are reported and ignored.",
    "",
    "| field | accepted values | default | what it does |",
    "|---|---|---|---|",
    ...rows,
    "",
    "Example:",
    "",
    "```json",
    JSON.stringify(
      {
        depth: "thorough",
        mode: "follow",
        runners: { python: { command: ["uv", "run", "pytest"], test_dir: "tests" } },
      },
      null,
      2,
    ),
    "```",
    "",
  ].join("\n");
}

function walk(properties: Record<string, JsonSchemaNode>, prefix: string, rows: string[]): void {
  for (const [key, node] of Object.entries(properties)) {
    const field = `${prefix}${key}`;
    if (node.properties !== undefined) {
      walk(node.properties, `${field}.`, rows);
      continue;
    }
    if (node.propertyNames !== undefined && typeof node.additionalProperties === "object") {
      const keys = node.propertyNames.enum?.map(String).join(", ") ?? "any";
      rows.push(
        `| \`${field}\` | an object keyed by language (${keys}) | \`{}\` | ${node.description ?? ""} |`,
      );
      walk(node.additionalProperties.properties ?? {}, `${field}.<language>.`, rows);
      continue;
    }
    rows.push(
      `| \`${field}\` | ${accepted(node)} | ${defaultOf(field)} | ${node.description ?? ""} |`,
    );
  }
}

function accepted(node: JsonSchemaNode): string {
  if (node.enum !== undefined) return node.enum.map((value) => `\`${String(value)}\``).join(", ");
  if (node.type === "array")
    return `a list of ${node.items?.type === "string" ? "strings" : "values"}`;
  if (node.type === "integer" || node.type === "number") {
    const range =
      node.minimum !== undefined && node.maximum !== undefined
        ? ` from ${node.minimum} to ${node.maximum}`
        : "";
    return `a whole number${range}`;
  }
  return `a ${String(node.type ?? "value")}`;
}

function defaultOf(field: string): string {
  let value: unknown = DEFAULT_CONFIG;
  for (const part of field.split(".")) {
    if (value === null || typeof value !== "object" || part.startsWith("<")) return "(none)";
    value = (value as Record<string, unknown>)[part];
  }
  return value === undefined ? "(none)" : `\`${JSON.stringify(value)}\``;
}
