import { defineConfig } from "@playwright/test";

/** Browser tests run Debian's Chromium against `sitegen serve` (never a downloaded browser). */
const PORT = Number(process.env.E2E_PORT ?? 4329);
const E2E_DIST = "node_modules/.cache/sitegen/e2e-dist";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // Two browsers per core: most of a browser test's time is spent waiting for frames, loads and answers,
  // with the core idle, so one browser per core leaves it idle most of the time.
  workers: "200%",
  // On CI one retry, so a rare timing hiccup on a loaded shared machine does not sink a run; the list
  // reporter still names any test that needed it as "flaky", and a test that fails twice fails the run.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    // Its own output folder, so the tests never race a developer's dist/; no watcher, as a host would serve it.
    command: `node bin/sitegen.js serve --no-watch --host 127.0.0.1 --port ${PORT} --out ${E2E_DIST}`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    // A throwaway database (tests/e2e/submissions.ts reads it), and a rate limit high enough for every
    // test's submissions from one address.
    env: { SUBMISSIONS_DB: "node_modules/.cache/sitegen/e2e-submissions.db", SUBMISSIONS_RATE_LIMIT: "1000" },
    stdout: "ignore",
    stderr: "pipe",
  },
});
