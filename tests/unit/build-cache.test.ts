import { describe, expect, it } from "vitest";
import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSite } from "../../src/generator/build.ts";
import { cacheDir } from "../../src/generator/build-cache.ts";
import { projectCopy, ROOT } from "../helpers.ts";
import { spawnSync } from "node:child_process";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

/**
 * The build caches (node_modules/.cache/sitegen) may only ever save time: every change to an input shows
 * in the next build, and a damaged cache is a miss, not an error.
 */
describe("build caches", () => {
  const project = projectCopy();
  const out = join(project, "dist");
  // With twins (as `sitegen serve` builds): they come from the compressed copies' cache too.
  const build = () => buildSite({ root: project, outDir: out, siteUrl: "https://cache.example.com.br", precompress: true });
  const read = (file: string) => readFileSync(join(out, file), "utf8");
  const scripts = () => readdirSync(join(out, "assets")).filter((f) => f.endsWith(".js")).sort();

  it("a second build with nothing changed is byte-identical, and the caches are in place", async () => {
    const first = await build();
    const before = Object.fromEntries(first.pages.map((p) => [p.file, read(p.file)]));
    const js = scripts();
    const second = await build();
    expect(Object.fromEntries(second.pages.map((p) => [p.file, read(p.file)]))).toEqual(before);
    expect(scripts()).toEqual(js);
    expect(second.pages.map((p) => p.brotliBytes)).toEqual(first.pages.map((p) => p.brotliBytes));
    expect(readFileSync(join(out, "about.html.br")).byteLength).toBe(second.pages.find((p) => p.file === "about.html")!.brotliBytes);
    // The twins that came from the cache are the page's own bytes, compressed.
    expect(brotliDecompressSync(readFileSync(join(out, "en/about.html.br"))).toString("utf8")).toBe(read("en/about.html"));
    expect(gunzipSync(readFileSync(join(out, "en/about.html.gz"))).toString("utf8")).toBe(read("en/about.html"));
    for (const name of ["yaml.json", "islands.json", "ssr.json", "css.json"]) expect(JSON.parse(readFileSync(cacheDir(project, name), "utf8"))).toBeTruthy();
    // One pack holds every compressed copy (a brotli and a gzip copy of each page at least).
    expect(readFileSync(cacheDir(project, "compressed.pack")).byteLength).toBeGreaterThan(second.pages.reduce((sum, p) => sum + p.brotliBytes, 0));
    // The pages bundle reads only the icons the pages use: importing lucide-react's root made esbuild
    // read some 2,000 of its files, about 400 ms of every first build.
    const ssrInputs = (JSON.parse(readFileSync(cacheDir(project, "ssr.json"), "utf8")) as { inputs: string[] }).inputs;
    expect(ssrInputs.filter((f) => f.includes("lucide-react")).length).toBeLessThan(60);
    // The inputs the bundle caches stamp are real files of this project, whatever the working folder.
    for (const name of ["ssr.json", "islands.json"]) {
      const inputs = (JSON.parse(readFileSync(cacheDir(project, name), "utf8")) as { inputs: string[] }).inputs.filter((f) => f.startsWith(join(project, "src")));
      expect(inputs.length).toBeGreaterThan(5);
      expect(inputs.filter((f) => !existsSync(f))).toEqual([]);
    }
  }, 60_000);

  it("shows a changed YAML text, page component, island and stylesheet in the next build", async () => {
    await build();
    const yaml = join(project, "content", "en", "common.yaml");
    writeFileSync(yaml, readFileSync(yaml, "utf8").replace("skipToContent: Skip to content", "skipToContent: Skip to the content"));
    const page = join(project, "src", "pages", "about.tsx");
    writeFileSync(page, readFileSync(page, "utf8").replace("export default function", "// cache test\nexport default function").replace(/(<PageHero[^>]*?)title=/, '$1eyebrow="Cache test eyebrow" title='));
    appendFileSync(join(project, "src", "islands", "newsletter.tsx"), '\nexport const cacheTestMarker = "cache test island";\n');
    appendFileSync(join(project, "src", "styles", "base.css"), "\n.cache-test { color: #123456; }\n");
    const js = scripts();
    await build();
    expect(read("en/about.html")).toContain("Skip to the content");
    expect(read("en/about.html")).toContain("Cache test eyebrow");
    expect(scripts()).not.toEqual(js);
    const newsletter = scripts().find((f) => f.startsWith("newsletter."))!;
    expect(readFileSync(join(out, "assets", newsletter), "utf8")).toContain("cache test island");
    const css = readdirSync(join(out, "assets")).find((f) => f.endsWith(".css"))!;
    expect(readFileSync(join(out, "assets", css), "utf8")).toContain("#123456");
  }, 60_000);

  it("writes the sitemap for the address of this build, not an earlier one's", async () => {
    await build();
    await buildSite({ root: project, outDir: out, siteUrl: "https://outro.example.com.br" });
    expect(read("sitemap.xml")).toContain("<loc>https://outro.example.com.br/en/about</loc>");
    expect(read("sitemap.xml")).not.toContain("cache.example.com.br");
    await build();
    expect(read("sitemap.xml")).toContain("<loc>https://cache.example.com.br/en/about</loc>");
  }, 60_000);

  it("keeps a pages bundle per NODE_ENV: React's renderer file differs, and the wrong one renders nothing", async () => {
    await build(); // NODE_ENV is "test" here: React's development renderer
    const cliOut = join(project, "dist-cli");
    const cli = spawnSync(process.execPath, [join(ROOT, "bin", "sitegen.js"), "build", "--out", cliOut], { cwd: project, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } });
    expect(cli.stderr).not.toContain("Error");
    expect(cli.status).toBe(0);
    expect(readFileSync(join(cliOut, "index.html"), "utf8")).toContain("<h1");
    const again = await build();
    expect(again.pages.length).toBeGreaterThan(40);
  });

  it("treats damaged cache files as misses", async () => {
    for (const name of ["yaml.json", "islands.json", "ssr.json", "css.json", "sitemap.json"]) writeFileSync(cacheDir(project, name), "{not json");
    const pack = readFileSync(cacheDir(project, "compressed.pack"));
    writeFileSync(cacheDir(project, "compressed.pack"), pack.subarray(0, pack.byteLength >> 1)); // cut short
    const result = await build();
    expect(result.pages.length).toBeGreaterThan(40);
    expect(read("en/about.html")).toContain("Skip to the content");
    expect(read("sitemap.xml")).toContain("<loc>https://cache.example.com.br/en/about</loc>");
    expect(brotliDecompressSync(readFileSync(join(out, "en/about.html.br"))).toString("utf8")).toBe(read("en/about.html"));
    writeFileSync(cacheDir(project, "compressed.pack"), "not a pack");
    await build();
    expect(gunzipSync(readFileSync(join(out, "about.html.gz"))).toString("utf8")).toBe(read("about.html"));
  }, 60_000);
});
