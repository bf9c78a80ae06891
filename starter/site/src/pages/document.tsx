import type { DocumentProps, PageLanguage } from "sitegen";
import { PageContext } from "./page-context.ts";

/** A language's name in that language ("português (Brasil)", "English"), for the language switcher. */
const languageName = (l: PageLanguage) => new Intl.DisplayNames([l.lang], { type: "language" }).of(l.lang) ?? l.lang;

/** The shell every page is rendered into: the head sitegen decided, then the header, the page and the footer. */
export function Document({ head, page, children }: DocumentProps) {
  const { t } = page;
  return (
    <html lang={page.lang}>
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
        <meta property="og:site_name" content={head.siteName} />
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={head.description} />
        {head.canonical && <meta property="og:url" content={head.canonical} />}
        <meta property="og:locale" content={head.ogLocale} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href={head.stylesheet} />
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: head.jsonLd }} />
      </head>
      <body>
        <PageContext.Provider value={page}>
          <a className="skip-link" href="#main">
            {t("nav.skip")}
          </a>
          <header>
            <a className="brand" href={page.href("home")}>
              {String(page.site.brand)}
            </a>
            <nav aria-label={t("nav.label")}>
              <ul>
                <li>
                  <a href={page.href("home")}>{t("nav.home")}</a>
                </li>
                <li>
                  <a href={page.href("services")}>{t("nav.services")}</a>
                </li>
              </ul>
            </nav>
            {page.languages.length > 1 && (
              <nav aria-label={t("nav.languages")}>
                <ul>
                  {page.languages.map((l) => (
                    <li key={l.code}>
                      <a href={l.href} hrefLang={l.lang} lang={l.lang} aria-current={l.current ? "page" : undefined}>
                        {languageName(l)}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            )}
          </header>
          {page.crumbs.length > 0 && (
            <nav className="trail" aria-label={t("nav.breadcrumbs")}>
              <ol>
                {page.crumbs.map((c) => (
                  <li key={c.label}>
                    {c.href ? <a href={c.href}>{c.label}</a> : <span aria-current="page">{c.label}</span>}
                  </li>
                ))}
              </ol>
            </nav>
          )}
          <main id="main">{children}</main>
          <footer>
            <p>{t("footer.text")}</p>
          </footer>
        </PageContext.Provider>
      </body>
    </html>
  );
}
