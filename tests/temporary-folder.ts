import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The unit tests' temporary files (projects copied, databases, outputs) go into one folder of the run's own,
 * removed when the run ends: a test that leaves its folder behind then leaves nothing on the machine.
 * Vitest runs this before it starts the test workers, which take the folder as their TMPDIR.
 */
export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), "sitegen-tests-"));
  // Others may pass through, not list it: PostgreSQL runs as its own user in a folder of it (tests/pg-cluster.ts).
  chmodSync(folder, 0o711);
  process.env.TMPDIR = folder;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  };
}
