import * as z from "zod/mini";

/**
 * Injected first into every adapter's hook bundle (tsup.config.base.ts): zod's JIT builds each
 * object schema's parser with `new Function` on first use, which a hook process (a fresh one per
 * call, parsing each schema once or twice) pays for in compiling and never gets back. The flag
 * is read as each schema is built, so this runs before any schema module.
 */
z.config({ jitless: true });
