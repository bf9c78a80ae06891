import { existsSync, readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { join } from "node:path";

/**
 * Listing a project's files: the entries of a collection, a locale's text files, the source images, the
 * public files, the output folder. Each folder is read once with the types of its names, so no file is looked
 * at on its own (at thousands of entries, that and loading a glob library were a good part of an incremental
 * build). As a glob would: names starting with a dot are left out, and symbolic links are followed (the peer
 * benchmark links its generated entries in as a collection's folder).
 */

/**
 * The files directly in `dir` (a path relative to `root`) whose extension is one of `extensions`, as `dir/name`,
 * sorted.
 */
export function filesIn(root: string, dir: string, extensions: readonly string[]): string[] {
  const files: string[] = [];
  const folder = join(root, dir);
  for (const entry of listing(folder)) {
    if (entry.name.startsWith(".") || !hasExtension(entry.name, extensions, true)) continue;
    if (kind(entry, folder) === "file") files.push(`${dir}/${entry.name}`);
  }
  return files.sort();
}

/**
 * The files anywhere under `dir` (a path relative to `root`), as paths relative to `root`, sorted; only those
 * whose extension is one of `extensions` when given (compared without regard to case: `.JPG` is a `.jpg`).
 */
export function filesBelow(root: string, dir: string, extensions?: readonly string[]): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const walk = (folder: string) => {
    const path = join(root, folder);
    // A folder reached twice through links (a link to one of its own parents) is walked once.
    if (!existsSync(path)) return;
    const real = realpathSync(path);
    if (seen.has(real)) return;
    seen.add(real);
    for (const entry of listing(path)) {
      if (entry.name.startsWith(".")) continue;
      // The extension first: most names under content/ are entries, not the images looked for.
      const wanted = !extensions || hasExtension(entry.name, extensions, false);
      if (entry.isFile() && !wanted) continue;
      const type = kind(entry, path);
      if (type === "folder") walk(`${folder}/${entry.name}`);
      else if (type === "file" && wanted) files.push(`${folder}/${entry.name}`);
    }
  };
  walk(dir);
  return files.sort();
}

/**
 * Every file under `dir` (an absolute path), by its path relative to it, dot files included and links not
 * followed: what a build left in its output folder.
 */
export function filesUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name), `${prefix}${entry.name}/`);
      else files.push(`${prefix}${entry.name}`);
    }
  };
  walk(dir, "");
  return files;
}

/** A folder's names with their types; none when the folder is not there. */
function listing(path: string): Dirent[] {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR")
      return [];
    throw error;
  }
}

/** What a name in `folder` is, a link being what it points to (a broken link is neither). */
function kind(entry: Dirent, folder: string): "file" | "folder" | undefined {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "folder";
  if (!entry.isSymbolicLink()) return undefined;
  const target = statSync(join(folder, entry.name), { throwIfNoEntry: false });
  return target?.isFile() ? "file" : target?.isDirectory() ? "folder" : undefined;
}

function hasExtension(name: string, extensions: readonly string[], caseSensitive: boolean): boolean {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return false;
  const extension = name.slice(dot + 1);
  return extensions.includes(caseSensitive ? extension : extension.toLowerCase());
}
