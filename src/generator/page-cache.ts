import { cacheDir, generatorStamp, readCachedJson, sha1, writeCached } from "./build-cache.ts";
import type { RenderJob, RenderShared } from "./render-worker.ts";
import type { LocaleCode } from "./routes.ts";

/** A page as an earlier build rendered it: its minified HTML and the translations it found missing. */
export interface CachedPage {
  html: string;
  missing: [locale: string, key: string][];
}

/**
 * Rendered pages kept between builds (build-cache.ts), so a rebuild renders only what changed. A page's
 * key covers everything its HTML depends on: the generator and installed packages, the pages bundle (its
 * file name is a hash of its code), the site configuration, the asset URLs, the text of the page's own
 * language, the page itself, and today's date (the footer shows the year). Editing English copy
 * re-renders the English pages only.
 */
export class PageCache {
  private readonly file: string;
  private readonly stored: Record<string, CachedPage>;
  private readonly used: Record<string, CachedPage> = {};
  /**
   * Each page rendered by this build, as JSON, made when the page is set: the build sets pages as the
   * output thread hands them back, while it waits for the rest, so save() has only to join them (one
   * JSON.stringify of every page took 10 ms at the very end of a first build).
   */
  private readonly serialized = new Map<string, string>();
  private readonly context: Record<string, string>;
  private changed = false;

  constructor(root: string, ssrFile: string, shared: RenderShared) {
    this.file = cacheDir(root, "pages.json");
    this.stored = readCachedJson<Record<string, CachedPage>>(this.file) ?? {};
    const common = sha1(
      JSON.stringify([generatorStamp(root), ssrFile.split(/[\\/]/).pop(), shared.site, shared.stylesheet, shared.scripts, shared.preloads, shared.islands, new Date().toISOString().slice(0, 10)]),
    );
    this.context = Object.fromEntries(
      Object.entries(shared.dictionaries).map(([locale, dictionary]) => [locale, sha1(`${common}\0${JSON.stringify([...dictionary])}`)]),
    );
  }

  /** Each job's key, made once: the build asks for it when it looks a page up and again when it stores it. */
  private readonly keys = new Map<RenderJob, string>();

  private key(job: RenderJob): string {
    let key = this.keys.get(job);
    if (key === undefined) {
      key = sha1(`${this.context[job.locale as LocaleCode]}\0${JSON.stringify(job)}`);
      this.keys.set(job, key);
    }
    return key;
  }

  get(job: RenderJob): CachedPage | undefined {
    const key = this.key(job);
    const page = this.stored[key];
    if (page && typeof page.html === "string" && Array.isArray(page.missing)) this.used[key] = page;
    return this.used[key];
  }

  set(job: RenderJob, page: CachedPage): void {
    const key = this.key(job);
    this.used[key] = page;
    this.serialized.set(key, JSON.stringify(page));
    this.changed = true;
  }

  /** Keeps exactly this build's pages, so the file never outgrows the site. */
  save(): void {
    const keys = Object.keys(this.used);
    if (!this.changed && keys.length === Object.keys(this.stored).length) return;
    const entries = keys.map((key) => `${JSON.stringify(key)}:${this.serialized.get(key) ?? JSON.stringify(this.used[key])}`);
    writeCached(this.file, `{${entries.join(",")}}`);
  }
}
