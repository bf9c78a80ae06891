import { createRequire } from "node:module";
import { MessageChannel, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { configureMarkdown, imagePlaceholder, MARKDOWN_PACKAGES, slugifyHeading } from "../markdown.ts";
import type { FileWriter } from "./file-writer.ts";

/**
 * Markdown bodies rendered ahead of their pages, on the writing thread (file-writer.ts). A cold build starts
 * that thread first, and it has nothing to write until the pages come: while this thread reads the
 * collections, the other renders each body as it is read. When a page then asks for its body, the HTML is
 * there, or the body is rendered here as it would have been without this.
 *
 * Each body has a number and a state, shared by the two threads: offered, being rendered there, taken here
 * first, rendered there. Whichever thread takes a body first renders it: the writing thread skips a body
 * this one took, and this one waits for a body the other has begun. Either way a body is rendered once, by
 * the same markdown-it, configured by the same code (configureMarkdown): the page is the same.
 */
export class BodiesAhead {
  private readonly port: MessagePort;
  /** The other end of `port`, which moves to the writing thread. */
  private readonly thread: MessagePort;
  private readonly states = new Int32Array(new SharedArrayBuffer(4 * MOST_BODIES));
  private readonly numbers = new Map<string, number>();
  /** The bodies rendered there and received here, by number (null: rendering failed there, and is done again here). */
  private readonly ready = new Map<number, string | null>();
  /** How much more Markdown may be offered, in UTF-16 code units. */
  private left = MOST_TEXT;
  /** Whether the writing thread was given its task (at the first body offered). */
  private started = false;
  private stopped = false;

  constructor(
    private readonly writer: FileWriter,
    private readonly siteUrl: string,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.thread = port2;
  }

  /** A body read from its file: sent to be rendered, while there is room for it. */
  offer(file: string, markdown: string): void {
    if (this.stopped || this.numbers.size >= MOST_BODIES || markdown.length > this.left || this.numbers.has(file)) return;
    // The thread loads markdown-it when the first body comes: a site without Markdown bodies never makes it.
    if (!this.started) this.start();
    this.left -= markdown.length;
    const number = this.numbers.size;
    this.numbers.set(file, number);
    this.port.postMessage({ number, markdown });
  }

  private start(): void {
    this.started = true;
    const resolve = createRequire(import.meta.url).resolve;
    const packages = Object.fromEntries(MARKDOWN_PACKAGES.map((name) => [name, resolve(name)]));
    const source = `(data, require) => (${renderAhead.toString()})(data, (${configureMarkdown.toString()})((name) => require(data.packages[name]), data.siteUrl, ${slugifyHeading.toString()}, ${imagePlaceholder.toString()}))`;
    // A thread that failed to render ahead leaves every body to this one.
    this.writer.run({ source, data: { port: this.thread, states: this.states, packages, siteUrl: this.siteUrl } }, [this.thread]).catch(() => this.stop());
  }

  /** The body's HTML, if it was rendered there; undefined when it is to be rendered here (the first time it is asked for, or not offered). */
  take(file: string): string | undefined {
    const number = this.numbers.get(file);
    if (number === undefined || this.stopped) return undefined;
    // Asked for again (a feed, then the page), it is rendered here: the HTML is not kept twice.
    this.numbers.set(file, -1);
    if (number < 0) return undefined;
    // Not begun there: this thread renders it, and the other will skip it.
    if (Atomics.compareExchange(this.states, number, OFFERED, TAKEN) === OFFERED) return undefined;
    for (let waits = 0; ; waits++) {
      this.receive();
      if (this.ready.has(number)) {
        const html = this.ready.get(number);
        this.ready.delete(number);
        return html ?? undefined;
      }
      // A thread that stopped while rendering it would never say so: after a while, it is rendered here.
      if (waits === MOST_WAITS) return undefined;
      Atomics.wait(this.states, number, RENDERING, WAIT_MS);
    }
  }

  /** How many of the offered bodies the writing thread has rendered so far. */
  get renderedThere(): number {
    let count = 0;
    for (let number = 0; number < this.numbers.size; number++) if (Atomics.load(this.states, number) === RENDERED) count++;
    return count;
  }

  /** No more bodies offered or taken (the thread is let go, or the pages are rendered). */
  stop(): void {
    this.stopped = true;
    this.ready.clear();
    this.port.close();
  }

  private receive(): void {
    for (let received = receiveMessageOnPort(this.port); received; received = receiveMessageOnPort(this.port)) {
      const { number, html } = received.message as { number: number; html: string | null };
      this.ready.set(number, html);
    }
  }
}

/** A body's states (BodiesAhead). */
const OFFERED = 0;
const RENDERING = 1;
const TAKEN = 2;
const RENDERED = 3;

/** At most this many bodies, and this much of their text (UTF-16 code units), are rendered ahead: what a few thousand articles hold. */
const MOST_BODIES = 1 << 16;
const MOST_TEXT = 16 * 1024 * 1024;

/** How long this thread waits for a body being rendered there, in turns of WAIT_MS, before rendering it itself. */
const MOST_WAITS = 20;
const WAIT_MS = 50;

/**
 * The writing thread's side: each body offered, rendered unless this thread took it first, and sent back.
 * It refers to nothing outside itself: its source text runs there, given its data and the configured
 * markdown-it. The port does not keep the thread running: it stops once its files are written.
 */
function renderAhead(data: { port: MessagePort; states: Int32Array }, md: { render(source: string): string }): void {
  const { port, states } = data;
  port.on("message", ({ number, markdown }: { number: number; markdown: string }) => {
    // 0: offered, 1: rendering (OFFERED and RENDERING above); 3: rendered.
    if (Atomics.compareExchange(states, number, 0, 1) !== 0) return;
    let html: string | null = null;
    try {
      html = md.render(markdown);
    } catch {
      // Rendered again on the build's thread, which then reports what failed.
    }
    port.postMessage({ number, html });
    Atomics.store(states, number, 3);
    Atomics.notify(states, number);
  });
  port.unref();
}
