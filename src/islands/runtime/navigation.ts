/**
 * The navigation island (spec §2): same-origin links and back/forward swap the page's main content instead
 * of loading a new document, with the skeleton while the next page is not ready, the 100 ms fade with a
 * 200 ms transition, and the route error fallback. It is a progressive enhancement of plain links: anything
 * it does not understand is left to the browser, so every link works without it.
 *
 * What stays across navigations: everything outside <main> whose language did not change (the toaster, the
 * consent banner with its state, the footer's newsletter form). What is replaced: <main>, the header (active
 * link, language switcher target) and the head's page metadata. The caller re-runs its per-page work
 * (islands, tooltips, gated scripts, language memory) through `onPage`, so nothing is left un-run after a
 * navigation, the bug class users of other client routers keep reporting.
 */

/**
 * Spec §2/§9: content fades out, the next page comes in after about 100 ms; the transition itself is 200 ms
 * (CSS).
 */
export const FADE_MS = 100;
/** The skeleton shows once the next page has kept us waiting this long, so fast swaps never flash it. */
export const SKELETON_DELAY_MS = 100;
/** At most this many pages are warmed per page view from links near the viewport. */
const WARM_LIMIT = 6;
/** A hover or focus prefetch is reused for this long; after that the click fetches afresh. */
const PREFETCH_TTL_MS = 15_000;
/** Page metadata in <head> that belongs to one page and is swapped with it. */
const HEAD_META =
  "title,meta[name=description],meta[name=robots],link[rel=canonical],link[rel=alternate]," +
  "meta[property^=og],meta[name^=twitter],script[type='application/ld+json']";
/** Regions outside <main> that are replaced: the header on every navigation, the others on a language change. */
const LANGUAGE_REGIONS = [
  "header",
  "footer",
  ".skip-link",
  "template[data-nav-template=skeleton]",
  "template[data-nav-template=error]",
];

export interface PageChange {
  /** The swapped content (<main>), and the other regions that were replaced (header; footer on a language change). */
  roots: HTMLElement[];
  languageChanged: boolean;
  /** Milliseconds from the click (or back/forward) to the new content being in place. */
  elapsed: number;
}

type Loaded =
  | { kind: "page"; status: number; html: string; url: URL }
  | { kind: "error"; detail: string; isStatus: boolean }
  | { kind: "browser" };

interface Options {
  onPage(change: PageChange): void;
}

const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
const keyOf = (url: URL) => url.pathname + url.search;
const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Starts the island; returns a function that replaces the current page with another in place (language
 * detection uses it, so a first visit that switches language keeps everything the page already set up),
 * or null when the browser cannot do client-side navigation. With keepAddress the address stays as it is
 * (the not-found page in the address's language keeps the address asked for), and a page that cannot be
 * fetched leaves the current one as it is.
 */
export function startNavigation({ onPage }: Options): ((href: string, keepAddress?: boolean) => void) | null {
  const main = document.querySelector<HTMLElement>("main#main");
  if (!main || !("pushState" in history)) return null;
  const cache = new Map<string, { at: number; loading: Promise<Loaded> }>();
  let rendered = keyOf(new URL(location.href));
  let navigation = 0;

  history.scrollRestoration = "manual";
  const saveScroll = () => history.replaceState({ ...(history.state as object | null), sitegenScroll: scrollY }, "");
  saveScroll();
  addEventListener("pagehide", saveScroll);
  // A reload or a return to this document from another site: put the visitor back where they were.
  const restored = (history.state as { sitegenScroll?: number } | null)?.sitegenScroll;
  const navType = (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined)?.type;
  if (restored && (navType === "reload" || navType === "back_forward"))
    addEventListener("load", () => scrollTo(0, restored), { once: true });

  /** The URL this island handles for a link, or null when the browser should. */
  const target = (a: HTMLAnchorElement, event?: MouseEvent): URL | null => {
    if (
      event &&
      (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    )
      return null;
    const href = a.getAttribute("href");
    if (!href || (a.target && a.target !== "_self") || a.hasAttribute("download") || a.dataset.reload !== undefined)
      return null;
    if (/\bexternal\b/.test(a.rel)) return null;
    const url = new URL(href, location.href);
    if (url.origin !== location.origin) return null;
    // Pages only: no files (sitemap.xml, robots.txt, assets), no endpoints, no dev-server paths.
    if (/\.(?!html$)[a-z0-9]+$/i.test(url.pathname) || /^\/(api|__sitegen|assets)\//.test(url.pathname)) return null;
    // A link to a spot on this same page is the browser's job.
    if (url.hash && keyOf(url) === rendered) return null;
    return url;
  };

  const load = (url: URL): Promise<Loaded> => {
    const key = keyOf(url);
    const hit = cache.get(key);
    if (hit && performance.now() - hit.at < PREFETCH_TTL_MS) return hit.loading;
    const loading = fetchPage(url);
    cache.set(key, { at: performance.now(), loading });
    // Only good pages stay cached; a failure is asked again next time.
    void loading.then((r) => (r.kind === "page" && r.status === 200 ? undefined : cache.delete(key)));
    return loading;
  };

  const prefetch = (e: Event) => {
    const a = (e.target as Element | null)?.closest?.("a[href]");
    if (!(a instanceof HTMLAnchorElement)) return;
    const url = target(a);
    const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
    if (url && keyOf(url) !== rendered && !connection?.saveData) void load(url);
  };
  document.addEventListener("pointerover", prefetch, { passive: true });
  document.addEventListener("focusin", prefetch);
  document.addEventListener("touchstart", prefetch, { passive: true });
  warmNearbyLinks();

  document.addEventListener("click", (e) => {
    const a = (e.target as Element | null)?.closest?.("a[href]");
    if (!(a instanceof HTMLAnchorElement)) return;
    const url = target(a, e);
    if (!url) return;
    e.preventDefault();
    void go(url, keyOf(url) === rendered ? "replace" : "push");
  });

  addEventListener("popstate", (e) => {
    const url = new URL(location.href);
    // Back or forward between two spots of the page that is shown: the browser already scrolled.
    if (keyOf(url) === rendered) return;
    void go(url, "pop", (e.state as { sitegenScroll?: number } | null)?.sitegenScroll ?? 0);
  });

  /**
   * Links of the content that come near the viewport: their pages are fetched once at low priority to
   * warm the HTTP cache. The answer is not kept here: a click asks again and gets a quick 304 (pages are
   * sent with no-cache and an ETag), so what the visitor sees is never older than the click.
   */
  function warmNearbyLinks(): void {
    const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } })
      .connection;
    if (!("IntersectionObserver" in window) || connection?.saveData || /2g/.test(connection?.effectiveType ?? ""))
      return;
    const warmed = new Set<string>([rendered]);
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer.unobserve(entry.target);
          const url = target(entry.target as HTMLAnchorElement);
          if (!url || warmed.has(keyOf(url)) || warmed.size > WARM_LIMIT) continue;
          warmed.add(keyOf(url));
          void requestPage(url, { priority: "low" } as RequestInit).catch(() => {});
        }
      },
      { rootMargin: "200px" },
    );
    const observe = () => {
      warmed.clear();
      warmed.add(rendered);
      main!.querySelectorAll("a[href]").forEach((a) => observer.observe(a));
    };
    // After the page settled, so warming never competes with the page's own loading.
    const idle = () => ("requestIdleCallback" in window ? requestIdleCallback(observe) : setTimeout(observe, 200));
    if (document.readyState === "complete") idle();
    else addEventListener("load", idle, { once: true });
    addEventListener("sitegen:navigate", () => {
      observer.disconnect();
      setTimeout(observe, 1000);
    });
  }

  return (href, keepAddress) => void go(new URL(href, location.href), "replace", 0, keepAddress);

  async function go(url: URL, mode: "push" | "replace" | "pop", scroll = 0, keepAddress?: boolean): Promise<void> {
    const id = ++navigation;
    const started = performance.now();
    if (mode !== "pop") saveScroll();
    const animate = !reducedMotion();
    const loading = load(url);
    dispatchEvent(new Event("sitegen:navigate")); // islands outside <main> may react (the consent dialog closes)
    main!.setAttribute("aria-busy", "true");
    if (animate) main!.classList.add("is-leaving");
    let skeleton: HTMLElement | null = null;
    const skeletonTimer = setTimeout(() => (skeleton = showSkeleton()), SKELETON_DELAY_MS);
    const [result] = await Promise.all([loading, animate ? wait(FADE_MS) : undefined]);
    clearTimeout(skeletonTimer);
    (skeleton as HTMLElement | null)?.remove();
    if (id !== navigation) return; // a newer navigation took over
    main!.removeAttribute("aria-busy");
    const doc = result.kind === "page" ? parsePage(result.html) : null;
    if (keepAddress && !doc) return;
    if (result.kind === "browser" || (result.kind === "page" && !doc)) {
      // Back/forward already changed the URL: load it; otherwise go there as a plain link would.
      if (mode === "pop") location.reload();
      else location.assign(url.href);
      return;
    }
    // The hash is the clicked link's: a prefetched page may have been asked for by a link with another one.
    const finalUrl = new URL(keepAddress ? location.href : result.kind === "page" ? result.url : url);
    if (!keepAddress) finalUrl.hash = url.hash;
    if (mode === "push") history.pushState({ sitegenScroll: 0 }, "", finalUrl.href);
    else if (mode === "replace") history.replaceState({ sitegenScroll: 0 }, "", finalUrl.href);
    rendered = keyOf(finalUrl);
    const change = doc ? swap(doc) : result.kind === "error" ? showError(result.detail, result.isStatus) : null;
    if (!change) return;
    change.elapsed = performance.now() - started;
    const anchor =
      mode !== "pop" && finalUrl.hash ? document.getElementById(decodeURIComponent(finalUrl.hash.slice(1))) : null;
    if (anchor) anchor.scrollIntoView();
    else scrollTo(0, scroll);
    main!.classList.remove("is-leaving");
    focusHeading();
    announce(document.title);
    onPage(change);
  }

  /** Replace the page's content and metadata with the fetched document's. */
  function swap(doc: Document): PageChange {
    const html = document.documentElement;
    const languageChanged = doc.documentElement.lang !== html.lang;
    html.lang = doc.documentElement.lang;
    // The new <title> element moves over with the rest of the page's metadata.
    document.head.querySelectorAll(HEAD_META).forEach((el) => el.remove());
    const stylesheet = document.head.querySelector('link[rel="stylesheet"]');
    doc.head.querySelectorAll(HEAD_META).forEach((el) => document.head.insertBefore(el, stylesheet));
    main!.replaceChildren(...doc.querySelector("main#main")!.childNodes);
    rerunScripts(main!);
    const roots: HTMLElement[] = [main!];
    // The header always (active link, switcher target); the rest of the shell only when the language changed.
    for (const selector of languageChanged ? LANGUAGE_REGIONS : LANGUAGE_REGIONS.slice(0, 1)) {
      const fresh = doc.querySelector<HTMLElement>(`body > ${selector}`);
      const old = document.querySelector<HTMLElement>(`body > ${selector}`);
      if (fresh && old) (old.replaceWith(fresh), roots.push(fresh));
    }
    // The toaster and the consent banner keep their state and only take the new language's strings
    // (main.ts renders the banner again with them).
    if (languageChanged)
      for (const selector of ["[data-toaster=main]", "[data-toaster=alert]", "[data-island=cookie-consent]"])
        for (const name of ["aria-label", "data-close-label", "data-props"]) {
          const value = doc.querySelector(selector)?.getAttribute(name);
          if (value != null) document.querySelector(selector)?.setAttribute(name, value);
        }
    return { roots, languageChanged, elapsed: 0 };
  }

  /** The route error fallback in place of the content, in the page's language, with the status or message. */
  function showError(detail: string, isStatus: boolean): PageChange {
    const fallback = cloneTemplate("error");
    if (!fallback) {
      // No template to show (an old page): let the browser show what the server says.
      location.reload();
      return { roots: [], languageChanged: false, elapsed: 0 };
    }
    const line = fallback.querySelector<HTMLElement>("[data-error-detail]");
    if (line) line.textContent = isStatus ? `${line.dataset.statusLabel}: ${detail}` : detail;
    main!.replaceChildren(fallback);
    document.title = main!.querySelector("h1")?.textContent ?? document.title;
    // The previous page's canonical, alternates and structured data do not describe this address.
    document.head.querySelectorAll(HEAD_META).forEach((el) => el.tagName !== "TITLE" && el.remove());
    return { roots: [main!], languageChanged: false, elapsed: 0 };
  }

  function showSkeleton(): HTMLElement | null {
    const skeleton = cloneTemplate("skeleton")?.firstElementChild as HTMLElement | null;
    if (skeleton) document.body.append(skeleton);
    return skeleton;
  }

  function focusHeading(): void {
    const heading = main!.querySelector<HTMLElement>("h1") ?? main!;
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }
}

/** The GET for a page of the site (a hash is never sent). */
const requestPage = (url: URL, init?: RequestInit) =>
  fetch(url.pathname + url.search, { ...init, headers: { Accept: "text/html" } });

/** GET the next page; decide whether it can be swapped in, shown as the error fallback, or left to the browser. */
async function fetchPage(url: URL): Promise<Loaded> {
  let response: Response;
  try {
    response = await requestPage(url);
  } catch (error) {
    return { kind: "error", detail: error instanceof Error ? error.message : String(error), isStatus: false };
  }
  if (response.status !== 200 && response.status !== 404)
    return { kind: "error", detail: String(response.status), isStatus: true };
  if (!(response.headers.get("content-type") ?? "").includes("text/html")) return { kind: "browser" };
  const final = new URL(response.url || url.href);
  if (final.origin !== location.origin) return { kind: "browser" };
  return { kind: "page", status: response.status, html: await response.text(), url: final };
}

/**
 * Parses a fetched page afresh for each use (a swap moves its nodes out, and a cached page may be shown
 * again). Null when it comes from another build (a deployment happened meanwhile) or has another shape:
 * then a full load is the safe answer.
 */
function parsePage(html: string): Document | null {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const same = (selector: string, attr: string) =>
    doc.querySelector(selector)?.getAttribute(attr) === document.querySelector(selector)?.getAttribute(attr);
  return doc.querySelector("main#main") &&
    same('link[rel="stylesheet"]', "href") &&
    same('script[type="module"][src]', "src")
    ? doc
    : null;
}

function cloneTemplate(name: string): DocumentFragment | null {
  const template = document.querySelector<HTMLTemplateElement>(`template[data-nav-template="${name}"]`);
  return template ? (template.content.cloneNode(true) as DocumentFragment) : null;
}

/** Scripts parsed by DOMParser never run; copies do, so a script in the new content runs as on a full load. */
function rerunScripts(root: HTMLElement): void {
  root.querySelectorAll("script").forEach((old) => {
    const type = old.getAttribute("type");
    if (type && type !== "module" && !/javascript/i.test(type)) return; // data blocks and consent-gated scripts
    const script = document.createElement("script");
    for (const { name, value } of Array.from(old.attributes)) script.setAttribute(name, value);
    script.textContent = old.textContent;
    old.replaceWith(script);
  });
}

function announce(text: string): void {
  const region = document.querySelector("[data-route-announcer]");
  if (region) region.textContent = text;
}
