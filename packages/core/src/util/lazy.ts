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
  const stand: Stand = { [BUILD]: build };
  return new Proxy(stand, FORWARD) as unknown as T;
}

/**
 * The stand-in holds its builder, then what it built, under keys only this module has; one
 * handler serves every stand-in. A handler and nine closures per value, as it was, were ~33 KB of
 * young objects in every hook process for the ~80 lazy schemas a bundle holds (ADR 0010).
 */
const BUILD = Symbol("lazy build");
const BUILT = Symbol("lazy built");

interface Stand {
  [BUILD]?: () => object;
  [BUILT]?: object;
}

function real(stand: Stand): object {
  let built = stand[BUILT];
  if (built === undefined) {
    const build = stand[BUILD] as () => object;
    built = build();
    stand[BUILT] = built;
    stand[BUILD] = undefined;
  }
  return built;
}

const FORWARD: ProxyHandler<Stand> = {
  get: (stand, key): unknown => Reflect.get(real(stand), key),
  set: (stand, key, value) => Reflect.set(real(stand), key, value),
  has: (stand, key) => Reflect.has(real(stand), key),
  ownKeys: (stand) => Reflect.ownKeys(real(stand)),
  getOwnPropertyDescriptor(stand, key) {
    const found = Reflect.getOwnPropertyDescriptor(real(stand), key);
    if (found?.configurable === false && !Object.hasOwn(stand, key))
      Reflect.defineProperty(stand, key, found);
    return found;
  },
  defineProperty: (stand, key, descriptor) => Reflect.defineProperty(real(stand), key, descriptor),
  deleteProperty: (stand, key) => Reflect.deleteProperty(real(stand), key),
  getPrototypeOf: (stand) => Reflect.getPrototypeOf(real(stand)),
};
