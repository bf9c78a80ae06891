import { closeSync, mkdirSync, openSync, readSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Files of JSON lines, as the build manifest (manifest.ts) and the entry cache (entry-cache.ts) keep them:
 * read and written a block at a time, so that at tens of thousands of pages neither is ever in memory as one string.
 */

/**
 * The lines of a file, read a block at a time, each decoded on its own: a newline byte is never part of
 * another character in UTF-8, so a line's bytes are found before decoding them (decoding each block whole,
 * to cut it into lines afterwards, took as long as parsing them).
 */
export function* lines(file: string): Generator<string> {
  const fd = openSync(file, "r");
  try {
    let block = Buffer.allocUnsafe(1 << 20);
    // The bytes of block[0, end) are read and not yet given out as lines.
    let end = 0;
    for (;;) {
      const read = readSync(fd, block, end, block.length - end, null);
      if (read === 0) break;
      end += read;
      let start = 0;
      for (let newline = block.indexOf(10, start); newline >= 0 && newline < end; newline = block.indexOf(10, start)) {
        yield block.toString("utf8", start, newline);
        start = newline + 1;
      }
      // What is left of the last line moves to the block's start; a line longer than the block makes it larger.
      if (start === 0 && end === block.length) block = Buffer.concat([block, Buffer.allocUnsafe(block.length)]);
      else block.copy(block, 0, start, end);
      end -= start;
    }
    if (end > 0) yield block.toString("utf8", 0, end);
  } finally {
    closeSync(fd);
  }
}

/** Whether the file's last byte ends a line: a file cut short (a build killed while writing it) does not. */
export function endsWithNewline(file: string, size: number): boolean {
  if (size === 0) return false;
  const fd = openSync(file, "r");
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 10;
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
