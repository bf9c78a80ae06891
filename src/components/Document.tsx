import { ConsentRoot, Toaster } from "./ConsentRoot.tsx";
import { NavTemplates } from "./NavTemplates.tsx";
import type { DocumentProps } from "../generator/site-definition.ts";
import { PageContext, type PageContextValue } from "./page-context.tsx";
import { Header } from "./Header.tsx";
import { Footer } from "./Footer.tsx";
import { Breadcrumbs } from "./Breadcrumbs.tsx";

/**
 * Speculation Rules: where the browser has them, it prefetches a page the visitor is about to open (on
 * hover), so the loads the navigation island leaves to the browser, and every load without JavaScript, are
 * fast too. Written into the page rather than added by script: it needs no JavaScript, and the CSP allows
 * exactly this kind of inline script ('inline-speculation-rules').
 */
const SPECULATION_RULES = JSON.stringify({
  prefetch: [{ where: { and: [{ href_matches: "/*" }, { not: { href_matches: "/api/*" } }] }, eagerness: "moderate" }],
});

/** The one document shell every page is rendered into. */
export function Document({ head, page: data, children }: DocumentProps) {
  const page = data as PageContextValue;
  const { t } = page;
  return (
    <html
      lang={page.lang}
      data-locales={JSON.stringify(Object.fromEntries(page.site.locales.map((l) => [l.code, l.prefix])))}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={head.description} />
        {head.canonical ? (
          <>
            <link rel="canonical" href={head.canonical} />
            {head.alternates.map((a) => (
              <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />
            ))}
          </>
        ) : (
          <meta name="robots" content="noindex" />
        )}
        <meta property="og:type" content={head.ogType} />
        {head.article && (
          <>
            <meta property="article:published_time" content={head.article.publishedTime} />
            {head.article.modifiedTime && <meta property="article:modified_time" content={head.article.modifiedTime} />}
            {head.article.tags.map((tag) => (
              <meta key={tag} property="article:tag" content={tag} />
            ))}
          </>
        )}
        <meta property="og:site_name" content={head.siteName} />
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={head.description} />
        {head.canonical && <meta property="og:url" content={head.canonical} />}
        <meta property="og:locale" content={head.ogLocale} />
        {head.ogLocaleAlternates.map((l) => (
          <meta key={l} property="og:locale:alternate" content={l} />
        ))}
        {head.image && (
          <>
            <meta property="og:image" content={head.image.src} />
            <meta property="og:image:width" content={String(head.image.width)} />
            <meta property="og:image:height" content={String(head.image.height)} />
          </>
        )}
        <meta name="twitter:card" content={head.image ? "summary_large_image" : "summary"} />
        <meta name="twitter:title" content={head.title} />
        <meta name="twitter:description" content={head.description} />
        <meta name="theme-color" content="#0b1f33" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {head.feeds.map((feed) => (
          <link key={feed.href} rel="alternate" type={feed.type} title={feed.title} href={feed.href} />
        ))}
        {head.fonts.map((font) => (
          <link key={font.href} rel="preload" as="font" type={font.type} href={font.href} crossOrigin="" />
        ))}
        <link rel="stylesheet" href={head.stylesheet} />
        {head.preloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
        {head.scripts.map((src) => (
          <script key={src} type="module" src={src} />
        ))}
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: head.jsonLd }} />
        <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
      </head>
      <body>
        <PageContext.Provider value={page}>
          <a className="skip-link" href="#main">
            {t("a11y.skipToContent")}
          </a>
          <ConsentRoot />
          {page.route?.id === "home" && (
            // Spec §4: on the home path only, a first visit asks which language to show (mounted by the runtime).
            <div
              hidden
              data-island="language-detection"
              data-when="manual"
              data-src={page.islands["language-detection"]}
              data-props={JSON.stringify({ endpoint: page.site.endpoints.detectLanguage })}
            />
          )}
          <Header />
          <main id="main" tabIndex={-1}>
            {page.crumbs.length > 0 && <Breadcrumbs />}
            {children}
          </main>
          <Footer />
          <NavTemplates />
          <Toaster />
          {/* The navigation island announces each new page's title here (present from the start, so screen readers
              follow it). */}
          <div className="visually-hidden" data-route-announcer="" aria-live="assertive" aria-atomic="true" />
        </PageContext.Provider>
      </body>
    </html>
  );
}
