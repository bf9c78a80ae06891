import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts"],
    globalSetup: ["tests/temporary-folder.ts"],
    // The build tests render the whole site; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Vitest's default leaves one core free, which on a 2-core machine runs the files one at a time. Much
    // of a file's time is spent waiting on the child processes, servers and disk it starts, so one file
    // more than there are cores keeps them busy (README: "Quick start").
    maxWorkers: availableParallelism() + 1,
  },
});
