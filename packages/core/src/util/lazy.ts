/**
 * A value built on first use, standing in for it meanwhile (ADR 0010, "Schemas built lazily").
 *
 * A hook is a fresh process on every edit, and a bundle's top level used to build every zod
 * schema of every module it holds (the session record, the history file, the strict and tdd
 * logs) whether the call reads it or not. `lazy(() => z.object({...}))` is the schema itself to
 * every reader — same type, same behaviour, same object each time — but `build` runs only when
 * something first touches it (a parse, a composition that reads it, a property). Composing
 * lazy schemas does not build them: zod reads an object's shape, an array's element and an
 * optional's inner schema when it parses.
 *
 * It is a Proxy over an empty object that forwards every operation to the built value. A
 * property the built value holds as non-configurable is copied onto the stand-in when
 * described, so the Proxy's invariants hold. Only for objects built with no side effect a
 * reader would miss (a registry entry made in `build` happens when it is first used).
 */
export function lazy<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_stand, key) => Reflect.get(real(), key),
    set: (_stand, key, value) => Reflect.set(real(), key, value),
    has: (_stand, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor(stand, key) {
      const found = Reflect.getOwnPropertyDescriptor(real(), key);
      if (found?.configurable === false && !Object.hasOwn(stand, key))
        Reflect.defineProperty(stand, key, found);
      return found;
    },
    defineProperty: (_stand, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_stand, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
