import { defineConfig } from "vitest/config";

/** The load and crash tests of the form endpoints (npm run bench:load): minutes long, so not in npm test. */
export default defineConfig({
  test: {
    include: ["tests/load/**/*.test.ts"],
    globalSetup: ["tests/temporary-folder.ts"],
    testTimeout: 900_000,
    hookTimeout: 300_000,
    // One store at a time: the figures of one must not include the load of the other.
    fileParallelism: false,
  },
});
