import { createRequire } from "node:module";

/**
 * Loads a package when it is first needed instead of at start-up. esbuild, lightningcss and
 * better-sqlite3 cost 10-30 ms each to load (more through ESM's CommonJS interop), and a build whose
 * bundles and stylesheet come from the cache, or `sitegen --version`, needs none of them.
 */
export const requireLazily = createRequire(import.meta.url);
