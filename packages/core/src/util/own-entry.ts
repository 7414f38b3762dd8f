/**
 * A table's own entry for a key that came from outside (a command word, an event name, an XML
 * entity): a plain object's inherited members (`constructor`, `__proto__`, `toString`) are not
 * entries, so `table[key]` alone would hand back a function for `constructor`.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
