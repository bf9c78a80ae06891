import { closeSync, mkdirSync, openSync, readSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { StringDecoder } from "node:string_decoder";

/**
 * Files of JSON lines, as the build manifest (manifest.ts) and the entry cache (entry-cache.ts) keep them:
 * read and written a block at a time, so that at tens of thousands of pages neither is ever in memory as one string.
 */

/** The lines of a file, read and decoded a block at a time (a character cut by a block's end is decoded whole). */
export function* lines(file: string): Generator<string> {
  const fd = openSync(file, "r");
  try {
    const block = Buffer.alloc(1 << 20);
    const decoder = new StringDecoder("utf8");
    let rest = "";
    let read: number;
    while ((read = readSync(fd, block, 0, block.length, null)) > 0) {
      const text = rest + decoder.write(block.subarray(0, read));
      let start = 0;
      for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
        yield text.slice(start, end);
        start = end + 1;
      }
      rest = text.slice(start);
    }
    rest += decoder.end();
    if (rest) yield rest;
  } finally {
    closeSync(fd);
  }
}

/** Writes each item as a line of JSON beside the file, then renames it over the file: a reader never sees half of it. */
export function writeLines(file: string, items: Iterable<unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    let chunk = "";
    for (const item of items) {
      chunk += `${JSON.stringify(item)}\n`;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = "";
      }
    }
    writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}
