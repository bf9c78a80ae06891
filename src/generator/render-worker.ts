import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { SiteConfig } from "./config.ts";
import { createTranslator, type Translator } from "./i18n.ts";
import { renderPage, type RenderInput, type RenderTarget } from "./render.ts";
import { minifyHtml, SharedParts } from "./minify-html.ts";
import type { SharedMarkupStore } from "../components/SharedMarkup.tsx";
import { routeById, type LocaleCode } from "./routes.ts";
import { requireSsr, type SsrModule } from "./ssr-bundle.ts";
import { SitegenError } from "./errors.ts";

/**
 * Rendering and minifying pages is the build's largest stage and runs on one core; on large sites this
 * worker takes half of the pages to the second one. It starts with the build, loads React and the pages bundle while
 * the main thread reads content, then renders and minifies its share. Output is identical either way.
 * Only the compiled CLI (a .cjs file) can be a worker's entry; run from TypeScript sources (the unit
 * tests), on one core, or with SITEGEN_RENDER_WORKER=0, everything renders in the main thread.
 */

/** A page to render, in a form that crosses threads (the route by id). */
export interface RenderJob {
  path: string;
  locale: LocaleCode;
  routeId?: string;
  pageName?: string;
  props?: Record<string, unknown>;
  metaKeys?: { title: string; description: string };
  /** How the missing-translation report names this page. */
  label: string;
}

export interface RenderShared {
  site: SiteConfig;
  dictionaries: Record<LocaleCode, Map<string, string>>;
  stylesheet: string;
  scripts: string[];
  preloads: string[];
  islands: Record<string, string>;
}

export interface RenderOutput {
  html: string[];
  /** [locale, key, page label] for each missing translation a page asked for. */
  missing: [string, string, string][];
  /** Time spent minifying, part of the rendering time (the build reports it as its own stage). */
  minifyMs: number;
}

type WorkerReply = { ok: true; output: RenderOutput } | { ok: false; name: string; message: string; hint?: string; stack?: string };

const ROLE = "sitegen-render";

/**
 * Below this many pages the worker costs more than it saves: it must load React and warm up its own
 * compiler, and most of a small site's render time is exactly that warm-up. Measured on 2 cores with this
 * site's 46 pages: 320 ms rendering in one thread, 580 ms split over two.
 */
export const WORKER_MIN_PAGES = 200;

export function targetOf(job: RenderJob): RenderTarget {
  return { path: job.path, locale: job.locale, route: job.routeId ? routeById(job.routeId) : undefined, pageName: job.pageName, props: job.props, metaKeys: job.metaKeys };
}

/**
 * Renders jobs in this thread, minified unless `minify` is false (the build's thread leaves that to the
 * output thread), noting every missing translation with the page's label. `onPage` gets each page as
 * soon as it is done (the build writes and compresses it meanwhile). Unminified, pages keep their
 * shared-markup placeholders (shared-markup.ts): `onPage` then also gets the parts each page is the first
 * to use, for whoever minifies it.
 */
export function renderJobs(
  ssr: SsrModule,
  shared: RenderShared,
  jobs: RenderJob[],
  options: { minify?: boolean; onPage?: (index: number, html: string, newParts: [string, string][]) => void } = {},
): RenderOutput {
  const missing: RenderOutput["missing"] = [];
  let label = "";
  const translators = Object.fromEntries(
    Object.entries(shared.dictionaries).map(([locale, dictionary]) => [locale, createTranslator(locale, dictionary, (l, key) => missing.push([l, key, label]))]),
  ) as Record<LocaleCode, Translator>;
  // One store per call: what a part renders to depends on this build's text and assets.
  const sharedMarkup: SharedMarkupStore | undefined = process.env.SITEGEN_SHARED_MARKUP === "0" ? undefined : { done: new Map(), pending: new Map() };
  const input: RenderInput = { site: shared.site, translators, ssr, stylesheet: shared.stylesheet, scripts: shared.scripts, preloads: shared.preloads, islands: shared.islands, sharedMarkup };
  const parts = new SharedParts();
  let partsSeen = 0;
  let minifyMs = 0;
  const html = jobs.map((job, index) => {
    label = job.label;
    const rendered = renderPage(input, targetOf(job));
    // Parts are kept in the order they were first rendered: the new ones are at the end.
    const newParts: [string, string][] = sharedMarkup ? [...sharedMarkup.done].slice(partsSeen).map(([key, part]) => [key, part.html]) : [];
    partsSeen += newParts.length;
    if (options.minify === false) {
      options.onPage?.(index, rendered, newParts);
      return rendered;
    }
    const started = performance.now();
    parts.add(newParts);
    const page = minifyHtml(rendered, parts);
    minifyMs += performance.now() - started;
    options.onPage?.(index, page, []);
    return page;
  });
  return { html, missing, minifyMs };
}

export class RenderWorker {
  private readonly worker: Worker;
  private readonly reply: Promise<WorkerReply>;

  private constructor(entry: string) {
    this.worker = new Worker(entry, { workerData: { role: ROLE } });
    this.reply = new Promise<WorkerReply>((resolve, reject) => {
      this.worker.once("message", resolve);
      this.worker.once("error", reject);
      this.worker.once("exit", (code) => reject(new Error(`The render worker stopped (exit code ${code}).`)));
    });
    this.reply.catch(() => {});
  }

  /**
   * A worker when this is the compiled CLI on a machine with a second core and the site is large enough
   * to repay it; otherwise null. SITEGEN_RENDER_WORKER=1 or 0 forces the choice.
   */
  static start(pages: number): RenderWorker | null {
    const self = fileURLToPath(import.meta.url);
    const forced = process.env.SITEGEN_RENDER_WORKER;
    if (!self.endsWith(".cjs") || availableParallelism() < 2 || forced === "0") return null;
    if (forced !== "1" && pages < WORKER_MIN_PAGES) return null;
    try {
      return new RenderWorker(self);
    } catch {
      return null;
    }
  }

  /** Lets the worker load the pages bundle (and React) while the main thread still has other work. */
  prepare(ssrFile: string): void {
    this.worker.postMessage({ type: "prepare", ssrFile });
  }

  async render(shared: RenderShared, jobs: RenderJob[], ssrFile: string): Promise<RenderOutput> {
    this.worker.postMessage({ type: "render", shared: { ...shared, ssrFile }, jobs });
    const reply = await this.reply;
    if (reply.ok) return reply.output;
    const cause = Object.assign(new Error(reply.message), { stack: reply.stack });
    throw new SitegenError(reply.name, reply.message, reply.hint, { cause });
  }

  close(): void {
    void this.worker.terminate();
  }
}

/** The worker's side: called when the compiled CLI starts as a render worker. Returns whether it is one. */
export function runIfRenderWorker(): boolean {
  if (isMainThread || (workerData as { role?: string } | null)?.role !== ROLE || !parentPort) return false;
  const port = parentPort;
  let ssr: Promise<SsrModule> | undefined;
  const load = (file: string) => (ssr ??= Promise.resolve().then(() => ({ ...requireSsr(file), file })));
  port.on("message", async (message: { type: "prepare"; ssrFile: string } | { type: "render"; shared: RenderShared & { ssrFile: string }; jobs: RenderJob[] }) => {
    if (message.type === "prepare") {
      load(message.ssrFile).catch(() => {}); // a failure shows when rendering asks for it
      return;
    }
    let reply: WorkerReply;
    try {
      reply = { ok: true, output: renderJobs(await load(message.shared.ssrFile), message.shared, message.jobs) };
    } catch (error) {
      const e = error as SitegenError;
      const cause = (e.cause as Error | undefined) ?? e;
      reply = { ok: false, name: e.name ?? "Error", message: e.message ?? String(error), hint: e.hint, stack: cause.stack };
    }
    port.postMessage(reply);
    port.close();
  });
  return true;
}
