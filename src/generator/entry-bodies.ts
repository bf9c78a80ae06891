import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Where an entry's body lies in the build's bodies file: its first byte and its length in bytes. */
export interface BodyPlace {
  offset: number;
  length: number;
}

/**
 * The bodies of the entries a build read, one after the other in a scratch file, as UTF-8. A page reads its
 * entry's body back from here instead of reading and parsing the entry's file again, and a build of many thousand
 * entries does not hold every body in memory. The file is removed from its folder as soon as it is opened: the
 * build reads and writes it through its descriptor, and nothing is left behind once it is closed, even by a build
 * that is killed.
 */
export class EntryBodies {
  private readonly fd: number;
  private end = 0;

  /** `folder`: where the scratch file is made (the site's cache folder, on disk). */
  constructor(folder: string) {
    mkdirSync(folder, { recursive: true });
    const path = join(folder, `bodies-${process.pid}-${randomBytes(6).toString("hex")}`);
    this.fd = openSync(path, "wx+");
    unlinkSync(path);
  }

  /** Adds a body at the end of the file. */
  add(body: string): BodyPlace {
    const length = writeSync(this.fd, body, this.end, "utf8");
    const place = { offset: this.end, length };
    this.end += length;
    return place;
  }

  read({ offset, length }: BodyPlace): string {
    const bytes = Buffer.allocUnsafe(length);
    readSync(this.fd, bytes, 0, length, offset);
    return bytes.toString("utf8");
  }

  close(): void {
    closeSync(this.fd);
  }
}
