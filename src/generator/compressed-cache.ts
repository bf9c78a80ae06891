import { readCached, sha1, writeCached } from "./build-cache.ts";

/**
 * Brotli and gzip copies kept between builds, keyed by the bytes they compress and the kind of
 * compression, all in one pack file (build-cache.ts). One file, because creating files is what costs here:
 * a file per copy meant some 120 files created (and renamed into place) by every first build and 120
 * opened by every later one, about 100 ms of a 46-page build on these machines.
 *
 * Pack layout: a 4-byte little-endian length, that many bytes of JSON index ([key, offset, length][]),
 * then the copies back to back. Like the page cache, a save keeps exactly this build's copies, so the
 * pack never outgrows the site. A damaged pack is a miss, never an error.
 */
export class CompressedCache {
  private readonly stored = new Map<string, Uint8Array>();
  private readonly used = new Map<string, Uint8Array>();
  private added = false;

  constructor(private readonly file: string) {
    const pack = readCached(file);
    if (!pack || pack.byteLength < 4) return;
    try {
      const indexLength = pack.readUInt32LE(0);
      const index = JSON.parse(pack.subarray(4, 4 + indexLength).toString("utf8")) as [string, number, number][];
      const base = 4 + indexLength;
      for (const [key, offset, length] of index) {
        if (base + offset + length > pack.byteLength) throw new RangeError("truncated pack");
        this.stored.set(key, pack.subarray(base + offset, base + offset + length));
      }
    } catch {
      this.stored.clear();
    }
  }

  /** What identifies a file's bytes (its copies are looked up and stored under it). */
  keyOf(data: string | Uint8Array): string {
    return sha1(data);
  }

  /** The copy of these bytes an earlier build made, if any (it is kept for the next build too). */
  lookup(key: string, kind: string): Uint8Array | undefined {
    const hit = this.used.get(`${key}.${kind}`) ?? this.stored.get(`${key}.${kind}`);
    if (hit) this.used.set(`${key}.${kind}`, hit);
    return hit;
  }

  /** Remembers a new copy for the next build. */
  store(key: string, kind: string, copy: Uint8Array): void {
    this.used.set(`${key}.${kind}`, copy);
    this.added = true;
  }

  /** Writes the copies this build used, when they differ from what the pack held. */
  save(): void {
    if (!this.added && this.used.size === this.stored.size) return;
    const index: [string, number, number][] = [];
    let offset = 0;
    for (const [key, copy] of this.used) {
      index.push([key, offset, copy.byteLength]);
      offset += copy.byteLength;
    }
    const header = Buffer.from(JSON.stringify(index));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.byteLength, 0);
    writeCached(this.file, Buffer.concat([length, header, ...this.used.values()]));
  }
}
