import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import { ROOT } from "../helpers.ts";

/** Issue 16: the generator holds no fact of this site and reaches into none of its folders. */
const sources = fg.sync("src/generator/**/*.ts", { cwd: ROOT }).map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));

describe("src/generator", () => {
  it("imports nothing from the site's folders (pages, components, islands, api)", () => {
    const reaches = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]).filter((spec) => /(^|\/)(pages|components|islands|api)(\/|$)/.test(spec) && spec.startsWith(".")).map((spec) => `${file}: ${spec}`),
    );
    expect(sources.length).toBeGreaterThan(30);
    expect(reaches).toEqual([]);
  });

  it("names no locale of this site: no \"pt\", \"en\", \"pt-BR\" or \"/en\" literal", () => {
    const literals = sources.flatMap(({ file, text }) => [...text.matchAll(/["'`](pt|en|pt-BR|pt_BR|en_US|\/en)["'`/]/g)].map((m) => `${file}: ${m[0]}`));
    expect(literals).toEqual([]);
  });
});
