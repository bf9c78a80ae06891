import { cpSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..");

/** A throwaway copy of the project (content and src copied, node_modules linked) that a test may break. */
export function projectCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "sitegen-project-"));
  cpSync(join(ROOT, "content"), join(dir, "content"), { recursive: true });
  cpSync(join(ROOT, "src"), join(dir, "src"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  symlinkSync(join(ROOT, "package.json"), join(dir, "package.json"));
  return dir;
}

/** Attribute value of the first tag matching `selector` (a regular expression for the tag's start). */
export function attr(html: string, tagPattern: RegExp, name: string): string | undefined {
  const tag = html.match(tagPattern)?.[0];
  return tag?.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");
}
