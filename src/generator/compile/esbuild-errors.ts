import { sitegenError } from "../errors.ts";

export interface EsbuildFailure {
  errors?: { text: string; location?: { file: string; line: number; column: number } | null }[];
}

/** An esbuild failure as the catalogued error `name`, at the first error's file:line:column. */
export function compileError(name: "PageCompileError" | "IslandCompileError", error: unknown, fallbackFile: string) {
  const first = (error as EsbuildFailure).errors?.[0];
  const location = first?.location ?? undefined;
  const place = { file: location?.file ?? fallbackFile, line: location?.line, column: location && location.column + 1 };
  return sitegenError(name, { ...place, text: first?.text ?? String(error) }, { cause: error });
}
