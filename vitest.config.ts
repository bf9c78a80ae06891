import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts"],
    globalSetup: ["tests/temporary-folder.ts"],
    // The build tests render the whole site; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
