/**
 * Watches a folder and every folder under it, for `sitegen serve`. Node's `fs.watch(dir, { recursive: true })`
 * is not used: on Linux it watches each file by its inode, so a save that writes a new file and renames it
 * over the old one (`sed -i`, the atomic save of many editors) is seen once, and that file never again. Here
 * each folder is watched on its own, which sees a file renamed into it like any other change, and a folder
 * that appears is watched from then on.
 */
import { readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { join, sep } from "node:path";

/** A guard against a tree no site has (a link loop, a dependency folder copied in): further folders are not watched. */
const MAX_FOLDERS = 5_000;

export interface TreeWatcher {
  close(): void;
  /** Whether some folders are not watched (beyond MAX_FOLDERS): a change there goes unreported. */
  readonly partial: boolean;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function subfolders(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(path, entry.name));
  } catch {
    return [];
  }
}

/** Calls `onChange` with the path of each file or folder created, written, renamed or removed under `root`. */
export function watchTree(root: string, onChange: (path: string) => void): TreeWatcher {
  const watchers = new Map<string, FSWatcher>();

  const forget = (folder: string) => {
    watchers.get(folder)?.close();
    watchers.delete(folder);
  };
  /** A folder and every folder under it: what was removed, or replaced by another moved in under its name. */
  const forgetTree = (folder: string) => {
    for (const watched of [...watchers.keys()])
      if (watched === folder || watched.startsWith(folder + sep)) forget(watched);
  };

  const add = (folder: string) => {
    // Each folder once; a breadth-first walk, so the cap keeps the folders nearest the root.
    const queue = [folder];
    while (queue.length > 0 && watchers.size < MAX_FOLDERS) {
      const next = queue.shift()!;
      if (watchers.has(next)) continue;
      let watcher: FSWatcher;
      try {
        watcher = watch(next, (_event, name) => {
          const path = name ? join(next, name.toString()) : next;
          if (!isFolder(next)) {
            forgetTree(next);
          } else if (path !== next) {
            // A folder made, moved in with its files, or removed: watched afresh, or no more.
            if (watchers.has(path)) forgetTree(path);
            if (isFolder(path)) add(path);
          }
          onChange(path);
        });
      } catch {
        continue; // gone between the listing and the watch
      }
      // A removed folder's watcher may report an error instead of an event: it has nothing left to watch.
      watcher.on("error", () => forget(next));
      watchers.set(next, watcher);
      queue.push(...subfolders(next));
    }
  };

  add(root);
  return {
    get partial() {
      return watchers.size >= MAX_FOLDERS;
    },
    close() {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
