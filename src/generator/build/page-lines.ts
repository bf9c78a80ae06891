import type { PageRecord } from "./incremental.ts";

/**
 * A page's record as a line of the manifest (manifest.ts): its fields in a fixed order, an array rather than
 * an object, as JSON.parse makes thousands of small arrays much faster than objects of named fields. What
 * every build needs of every page comes first (its file, locale, label, sizes, missing keys), then what
 * only a page looked at again needs (its plan's hash and its reads).
 */
export type PageLine = [file: string, locale: string, label: string, bytes: number, files: number, written: number, missing: string[], input: string, reads: [string, string][]];

export const pageLine = (r: PageRecord): PageLine => [r.file, r.locale, r.label, r.bytes, r.files, r.written, r.missing, r.input, r.reads];

/** What a build reports of a page it kept: the fields at the start of its line. */
export type PageSummary = Pick<PageRecord, "file" | "locale" | "label" | "bytes" | "files" | "written" | "missing">;

const STRING = String.raw`"((?:[^"\\]|\\.)*)"`;
/** The start of a page's line when the page lacks no text key (almost every page): its file, locale, label and sizes. */
const START = new RegExp(String.raw`^\[${STRING},${STRING},${STRING},(\d+),(\d+),(\d+),\[\],`);
const text = (written: string) => (written.includes("\\") ? (JSON.parse(`"${written}"`) as string) : written);

/** What a quick update (quick-update.ts) asks of the previous build's pages: PageLines from its file, PageRecords from memory. */
export interface PageIndex {
  /** Every page's summary. */
  summaries(): PageSummary[];
  /** One page's record. */
  page(file: string): PageRecord | undefined;
  /** The pages that read `read` (PageInputs' names). */
  readersOf(read: string): string[];
  /** Every read of any page whose name starts with `prefix`. */
  readsStartingWith(prefix: string): Set<string>;
}

/** The records of a manifest held in memory (sitegen serve's, build-memory.ts), asked as PageLines are. */
export class PageRecords implements PageIndex {
  private readonly all: PageRecord[];

  constructor(private readonly pages: Record<string, PageRecord>) {
    this.all = Object.values(pages);
  }

  summaries(): PageSummary[] {
    return this.all;
  }

  page(file: string): PageRecord | undefined {
    return this.pages[file];
  }

  readersOf(read: string): string[] {
    return this.all.filter((record) => record.reads.some(([name]) => name === read)).map((record) => record.file);
  }

  readsStartingWith(prefix: string): Set<string> {
    const found = new Set<string>();
    for (const record of this.all) for (const [name] of record.reads) if (name.startsWith(prefix)) found.add(name);
    return found;
  }
}

/**
 * The page lines of a manifest as read, the latest of each file, parsed only when asked for: a full build
 * parses every record (`records`), a quick update (quick-update.ts) the start of each line and the few
 * records it looks at, and finds the pages that read something by searching the lines for it.
 */
export class PageLines implements PageIndex {
  private readonly lines = new Map<string, string>();
  private all: Record<string, PageRecord> | undefined;

  /** Takes a line of the manifest that starts as a page's does. */
  add(line: string): void {
    const file = /^\["((?:[^"\\]|\\.)*)"/.exec(line);
    if (!file) throw new SyntaxError("A page's line of the manifest does not start with its file.");
    this.lines.set(text(file[1]), line);
  }

  delete(file: string): void {
    this.lines.delete(file);
  }

  get size(): number {
    return this.lines.size;
  }

  /** Every page's record, by file. */
  records(): Record<string, PageRecord> {
    if (!this.all) {
      this.all = {};
      for (const [file, line] of this.lines) this.all[file] = fromLine(line);
    }
    return this.all;
  }

  /** One page's record. */
  page(file: string): PageRecord | undefined {
    if (this.all) return this.all[file];
    const line = this.lines.get(file);
    return line === undefined ? undefined : fromLine(line);
  }

  /** Every page's summary, read from the start of its line. */
  summaries(): PageSummary[] {
    const out: PageSummary[] = [];
    for (const line of this.lines.values()) {
      const start = START.exec(line);
      if (!start) {
        const { file, locale, label, bytes, files, written, missing } = fromLine(line);
        out.push({ file, locale, label, bytes, files, written, missing });
        continue;
      }
      out.push({ file: text(start[1]), locale: text(start[2]), label: text(start[3]), bytes: Number(start[4]), files: Number(start[5]), written: Number(start[6]), missing: [] });
    }
    return out;
  }

  /** The pages that read `read` (PageInputs' names): found by the read's text in their lines, then checked in their records. */
  readersOf(read: string): string[] {
    const written = JSON.stringify(read);
    const files: string[] = [];
    for (const [file, line] of this.lines) if (line.includes(written) && fromLine(line).reads.some(([name]) => name === read)) files.push(file);
    return files;
  }

  /**
   * Every read of any page whose name starts with `prefix` ("collection:"), found in the text of the lines'
   * reads without parsing them (every page of a site may read its collection). The reads are the line's one
   * array of arrays: in JSON, a bare `",[["` can only be where it begins. A name with an escaped character in
   * it is taken from the parsed line.
   */
  readsStartingWith(prefix: string): Set<string> {
    const written = JSON.stringify(prefix).slice(0, -1);
    const reads = new Set<string>();
    for (const line of this.lines.values()) {
      const start = line.indexOf('",[["');
      if (start < 0) continue;
      for (let at = line.indexOf(written, start); at >= 0; at = line.indexOf(written, at + written.length)) {
        const end = line.indexOf('"', at + written.length);
        const name = line.slice(at + 1, end);
        if (name.includes("\\")) {
          for (const [read] of fromLine(line).reads) if (read.startsWith(prefix)) reads.add(read);
          break;
        }
        reads.add(name);
      }
    }
    return reads;
  }
}

function fromLine(line: string): PageRecord {
  const [file, locale, label, bytes, files, written, missing, input, reads] = JSON.parse(line) as PageLine;
  return { file, locale, label, input, reads, missing, bytes, files, written };
}
