import { createRequire } from "node:module";
import { MessageChannel, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { configureMarkdown, imagePlaceholder, MARKDOWN_PACKAGES, slugifyHeading, wordCounter } from "../markdown.ts";
import { splitEntry, type EntryRead } from "../entry-file.ts";
import type { FileWriter } from "./file-writer.ts";

/** A file the build is about to read, and whether its collection's schema takes `body` as a field. */
export interface FileToRead {
  file: string;
  bodyField: boolean;
}

/**
 * Entries read and Markdown bodies rendered ahead, on the writing thread (file-writer.ts). A cold build starts
 * that thread first, and it has nothing to write until the pages come. Meanwhile:
 * - told the files the build will read (`willRead`), it reads them from the last, while this thread reads
 *   them from the first, until the two meet: each file is read, hashed and parsed (splitEntry, the same code
 *   as here), its words counted; this thread checks the fields against the schema, as for a file it read;
 * - each Markdown body without an image, of a file either thread read, is rendered there by the same
 *   configured markdown-it (configureMarkdown); a page takes the HTML when it asks for its body.
 *
 * Each file has a number and, per kind of work, a state shared by the two threads: not begun, begun there,
 * taken here, done there. Whichever thread takes a piece of work first does it: the writing thread skips
 * what this one took, and this one waits for what the other has begun. What that thread could not do (a
 * file that does not parse) is done here again, which reports the error as it would have. So the entries
 * and pages are what this thread alone would make of them.
 */
export class ReadAhead {
  private readonly port: MessagePort;
  /** The other end of `port`, which moves to the writing thread. */
  private readonly thread: MessagePort;
  private readonly entryStates = new Int32Array(new SharedArrayBuffer(4 * MOST_FILES));
  private readonly bodyStates = new Int32Array(new SharedArrayBuffer(4 * MOST_FILES));
  /** Each file's number: its place in `willRead`'s list, or after them for a body offered alone. */
  private readonly numbers = new Map<string, number>();
  /** How many files were given to `willRead`. */
  private listed = 0;
  /** What the writing thread sent back, by number (null: it could not, and this thread does it). */
  private readonly entries = new Map<number, EntryRead | null>();
  private readonly bodies = new Map<number, string | null>();
  /** The bodies taken already: asked for again (a feed, then the page), a body is rendered here, not kept twice. */
  private readonly taken = new Set<number>();
  /** How much more Markdown this thread may send to be rendered, in UTF-16 code units (as much again for the other's own). */
  private left = MOST_TEXT;
  /** Whether the writing thread was given its task (when first given work). */
  private started = false;
  private stopped = false;

  constructor(
    private readonly writer: FileWriter,
    private readonly root: string,
    private readonly siteUrl: string,
    private readonly drafts: boolean,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.thread = port2;
  }

  /** The files the build reads, in the order it reads them: the writing thread reads them from the last. */
  willRead(files: FileToRead[]): void {
    if (this.stopped || this.listed > 0 || files.length === 0) return;
    const list = files.slice(0, MOST_FILES);
    list.forEach(({ file }, number) => this.numbers.set(file, number));
    this.listed = list.length;
    this.start();
    this.port.postMessage({ files: list });
  }

  /** What the writing thread read of a listed file; undefined when this thread reads it (the other had not begun it). */
  entry(file: string): EntryRead | undefined {
    const number = this.numbers.get(file);
    if (number === undefined || number >= this.listed || this.stopped) return undefined;
    return this.await(this.entryStates, number, this.entries) ?? undefined;
  }

  /** A body this thread read (the other sends its own): sent to be rendered, while there is room for it. */
  offer(file: string, markdown: string): void {
    if (this.stopped || markdown.length > this.left) return;
    let number = this.numbers.get(file);
    if (number === undefined) {
      if (this.numbers.size >= MOST_FILES) return;
      number = this.numbers.size;
      this.numbers.set(file, number);
    }
    this.left -= markdown.length;
    this.start();
    this.port.postMessage({ body: number, markdown });
  }

  /** The body's HTML, if it was rendered there; undefined when it is to be rendered here. */
  take(file: string): string | undefined {
    const number = this.numbers.get(file);
    if (number === undefined || this.stopped || this.taken.has(number)) return undefined;
    this.taken.add(number);
    return this.await(this.bodyStates, number, this.bodies) ?? undefined;
  }

  /** How many of the files the writing thread has read, and of the bodies it has rendered, so far. */
  get doneThere(): { entries: number; bodies: number } {
    let entries = 0;
    let bodies = 0;
    for (let number = 0; number < this.numbers.size; number++) {
      if (Atomics.load(this.entryStates, number) === DONE) entries++;
      if (Atomics.load(this.bodyStates, number) === DONE) bodies++;
    }
    return { entries, bodies };
  }

  /** No more work given or taken (the thread is let go, or the pages are rendered). */
  stop(): void {
    this.stopped = true;
    this.entries.clear();
    this.bodies.clear();
    this.port.close();
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    const resolve = createRequire(import.meta.url).resolve;
    const packages = Object.fromEntries([...MARKDOWN_PACKAGES, "js-yaml"].map((name) => [name, resolve(name)]));
    const markdown = `() => (${configureMarkdown.toString()})((name) => require(data.packages[name]), data.siteUrl, ${slugifyHeading.toString()}, ${imagePlaceholder.toString()})`;
    const source = `(data, require) => (${readAheadThread.toString()})(data, { require, split: ${splitEntry.toString()}, countWords: (${wordCounter.toString()})(), markdown: ${markdown} })`;
    const data = { port: this.thread, entryStates: this.entryStates, bodyStates: this.bodyStates, packages, root: this.root, siteUrl: this.siteUrl, drafts: this.drafts, mostText: MOST_TEXT, mostRead: MOST_READ };
    // A thread that failed to take the task leaves all the work to this one.
    this.writer.run({ source, data }, [this.thread]).catch(() => this.stop());
  }

  /** The writing thread's result for a piece of work, waiting while it is being done there; undefined when this thread takes it. */
  private await<T>(states: Int32Array, number: number, results: Map<number, T | null>): T | null | undefined {
    if (Atomics.compareExchange(states, number, NOT_BEGUN, TAKEN) === NOT_BEGUN) return undefined;
    for (let waits = 0; ; waits++) {
      this.receive();
      if (results.has(number)) {
        const result = results.get(number)!;
        results.delete(number);
        return result;
      }
      // A thread that stopped while doing it would never say so: after a while, it is done here.
      if (waits === MOST_WAITS) return undefined;
      Atomics.wait(states, number, BEGUN, WAIT_MS);
    }
  }

  private receive(): void {
    for (let received = receiveMessageOnPort(this.port); received; received = receiveMessageOnPort(this.port)) {
      const message = received.message as { entry: number; read: EntryRead | null } | { body: number; html: string | null };
      if ("entry" in message) this.entries.set(message.entry, message.read);
      else this.bodies.set(message.body, message.html);
    }
  }
}

/** The states of a piece of work (ReadAhead); readAheadThread writes the same numbers. */
const NOT_BEGUN = 0;
const BEGUN = 1;
const TAKEN = 2;
const DONE = 3;

/**
 * At most this many files are read ahead, and as much of their text (UTF-16 code units) as MOST_READ: what
 * the writing thread reads waits in memory until the build's thread reaches it. At most MOST_TEXT of Markdown
 * is rendered ahead by each thread's reading: the HTML waits until its page is rendered.
 */
const MOST_FILES = 1 << 16;
const MOST_READ = 16 * 1024 * 1024;
const MOST_TEXT = 8 * 1024 * 1024;

/** How long this thread waits for work begun there, in turns of WAIT_MS, before doing it itself. */
const MOST_WAITS = 20;
const WAIT_MS = 50;

interface ThreadData {
  port: MessagePort;
  entryStates: Int32Array;
  bodyStates: Int32Array;
  packages: Record<string, string>;
  root: string;
  drafts: boolean;
  mostText: number;
  mostRead: number;
}

interface ThreadTools {
  require: NodeJS.Require;
  split: typeof splitEntry;
  countWords: (source: string) => number;
  markdown: () => { render(source: string): string };
}

/**
 * The writing thread's side. It refers to nothing outside itself: its source text runs there, given its data
 * and tools. States: 0 not begun, 1 begun, 2 taken by the build's thread, 3 done (ReadAhead's). The port does
 * not keep the thread running: it stops once its files are written.
 */
function readAheadThread(data: ThreadData, tools: ThreadTools): void {
  const { port, entryStates, bodyStates, root, drafts } = data;
  const fs = tools.require("node:fs") as typeof import("node:fs");
  const crypto = tools.require("node:crypto") as typeof import("node:crypto");
  const yaml = tools.require(data.packages["js-yaml"]) as typeof import("js-yaml");
  let md: { render(source: string): string } | undefined;
  let left = data.mostText;
  const done = (states: Int32Array, number: number, message: unknown) => {
    port.postMessage(message);
    Atomics.store(states, number, 3);
    Atomics.notify(states, number);
  };
  // Bodies to render, in the order they came; a few at a time, so that the files to write are taken between them.
  const bodies: [number, string][] = [];
  let next = 0;
  const renderSome = () => {
    for (const end = Math.min(next + 8, bodies.length); next < end; next++) {
      const [number, markdown] = bodies[next];
      if (Atomics.compareExchange(bodyStates, number, 0, 1) !== 0) continue;
      let html: string | null = null;
      try {
        html = (md ??= tools.markdown()).render(markdown);
      } catch {
        // Rendered again on the build's thread, which then reports what failed.
      }
      done(bodyStates, number, { body: number, html });
    }
    if (next < bodies.length) setImmediate(renderSome);
    else bodies.length = next = 0;
  };
  const render = (number: number, markdown: string) => {
    if (bodies.push([number, markdown]) === 1) setImmediate(renderSome);
  };
  const read = (files: { file: string; bodyField: boolean }[]) => {
    // From the last file, until the build's thread, reading from the first, has taken the next one.
    // Its entries wait for the build's thread to reach them: past so much text, the rest is left to that thread.
    let textLeft = data.mostRead;
    for (let number = files.length - 1; number >= 0 && textLeft > 0; number--) {
      if (Atomics.compareExchange(entryStates, number, 0, 1) !== 0) break;
      const { file, bodyField } = files[number];
      let entry = null;
      try {
        const path = `${root}/${file}`;
        const { size, mtimeMs } = fs.statSync(path);
        const text = fs.readFileSync(path, "utf8");
        textLeft -= text.length;
        const split = tools.split(file, text, bodyField, false, (source) => yaml.load(source, { schema: yaml.CORE_SCHEMA, filename: file }), (_field, problem) => new Error(problem));
        entry = { ...split, hash: crypto.createHash("sha1").update(text).digest("hex"), size, mtimeMs, words: tools.countWords(split.body) };
        const body = split.body;
        if (!bodyField && body && !body.includes("![") && (drafts || split.front.draft !== true) && body.length <= left) {
          left -= body.length;
          render(number, body);
        }
      } catch {
        // Read again on the build's thread, which then reports what failed.
      }
      done(entryStates, number, { entry: number, read: entry });
    }
  };
  port.on("message", (message: { files: { file: string; bodyField: boolean }[] } | { body: number; markdown: string }) => {
    if ("files" in message) read(message.files);
    else render(message.body, message.markdown);
  });
  port.unref();
}
