import type * as z from "zod/mini";

/**
 * The option of a discriminated union that a value's discriminator names, or the union itself
 * (ADR 0010, "A log line parsed by its own option"). zod builds every option of a
 * `discriminatedUnion` when the union is first used, to map each discriminator value to its
 * option, so a gate that reads one kind of log line built a dozen schemas it never ran. Parsed
 * through the option its discriminator names, an object gets what the union gives it: the union
 * hands such an object to that option's own parse, same result, same issues. Anything else (not
 * an object, no discriminator, a value no option names) goes to the union, which answers it as
 * before. `options` must map each option's discriminator value to that option
 * (`union-option.test.ts` holds each use to its union).
 */
export function optionOf<U extends z.core.$ZodType>(
  value: unknown,
  discriminator: string,
  options: ReadonlyMap<unknown, z.core.$ZodType>,
  union: U,
): U {
  // The union's own test of an object (zod's `isObject`): anything else is its to answer.
  if (typeof value !== "object" || value === null || Array.isArray(value)) return union;
  const option = options.get((value as Record<string, unknown>)[discriminator]);
  return option === undefined ? union : (option as U);
}
