/**
 * Just enough of a Dockerfile reader for the tests that replay its steps without a Docker engine: stages,
 * and in each its instructions in order, continuation lines joined and comments dropped.
 */
export interface Instruction {
  op: string;
  args: string;
}

export interface Stage {
  name: string;
  image: string;
  steps: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  for (const line of lines) {
    const [, op, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    if (op.toUpperCase() === "FROM") {
      const [image, as, name] = args.split(/\s+/);
      stages.push({ name: as?.toUpperCase() === "AS" ? name : String(stages.length), image, steps: [] });
    } else {
      stages.at(-1)!.steps.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

/** COPY [--from=stage] [--chown=...] source... destination */
export function copyArgs(args: string): { from?: string; sources: string[]; destination: string } {
  const words = args.split(/\s+/);
  const flags = words.filter((w) => w.startsWith("--"));
  const paths = words.filter((w) => !w.startsWith("--"));
  const from = flags.find((f) => f.startsWith("--from="))?.slice("--from=".length);
  return { from, sources: paths.slice(0, -1), destination: paths.at(-1)! };
}

/** The exec form of CMD or HEALTHCHECK ... CMD: the JSON array after the options. */
export function execForm(args: string): string[] {
  return JSON.parse(args.slice(args.indexOf("[")));
}
