import { createContext, useContext } from "react";
import type { DocumentProps, PageData } from "../../../../src/generator/site-definition.ts";

/**
 * The benchmark's page, element for element as ../shared/bench/peers/bare-react.mjs writes it (its site
 * data too: navigation, footer, JSON-LD), so that every peer builds the same HTML.
 */
const SITE = "https://example.com";
const BRAND = "Sitegen Bench";
type Links = [string, string][];
const NAV: Record<string, Links> = {
  pt: [
    ["Início", "/"],
    ["Sobre", "/sobre/"],
    ["Serviços", "/servicos/"],
    ["Insights", "/insights/"],
    ["Cases", "/cases/"],
    ["Carreiras", "/carreiras/"],
    ["Contato", "/contato/"],
  ],
  en: [
    ["Home", "/en/"],
    ["About", "/en/about/"],
    ["Services", "/en/services/"],
    ["Insights", "/en/insights/"],
    ["Case studies", "/en/cases/"],
    ["Careers", "/en/careers/"],
    ["Contact", "/en/contact/"],
  ],
};
const FOOTER: Record<string, [string, Links][]> = {
  pt: [
    [
      "Empresa",
      [
        ["Sobre", "/sobre/"],
        ["Carreiras", "/carreiras/"],
        ["Contato", "/contato/"],
        ["Imprensa", "/imprensa/"],
      ],
    ],
    [
      "Serviços",
      [
        ["Estratégia", "/servicos/estrategia/"],
        ["Tecnologia", "/servicos/tecnologia/"],
        ["Dados", "/servicos/dados/"],
        ["Design", "/servicos/design/"],
      ],
    ],
    [
      "Insights",
      [
        ["Artigos", "/insights/"],
        ["Relatórios", "/relatorios/"],
        ["Podcast", "/podcast/"],
        ["Newsletter", "/newsletter/"],
      ],
    ],
    [
      "Legal",
      [
        ["Privacidade", "/privacidade/"],
        ["Termos", "/termos/"],
        ["Cookies", "/cookies/"],
        ["Acessibilidade", "/acessibilidade/"],
      ],
    ],
  ],
  en: [
    [
      "Company",
      [
        ["About", "/en/about/"],
        ["Careers", "/en/careers/"],
        ["Contact", "/en/contact/"],
        ["Press", "/en/press/"],
      ],
    ],
    [
      "Services",
      [
        ["Strategy", "/en/services/strategy/"],
        ["Technology", "/en/services/technology/"],
        ["Data", "/en/services/data/"],
        ["Design", "/en/services/design/"],
      ],
    ],
    [
      "Insights",
      [
        ["Articles", "/en/insights/"],
        ["Reports", "/en/reports/"],
        ["Podcast", "/en/podcast/"],
        ["Newsletter", "/en/newsletter/"],
      ],
    ],
    [
      "Legal",
      [
        ["Privacy", "/en/privacy/"],
        ["Terms", "/en/terms/"],
        ["Cookies", "/en/cookies/"],
        ["Accessibility", "/en/accessibility/"],
      ],
    ],
  ],
};

const Page = createContext<PageData | null>(null);
const usePage = () => useContext(Page)!;

export function BenchDocument({ head, page, children }: DocumentProps) {
  const e = page.entry!.data as Record<string, string>;
  const url = head.canonical!;
  const jsonLd = {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "BreadcrumbList",
        itemListElement: page.crumbs.map((c, i) => ({
          "@type": "ListItem",
          position: i + 1,
          name: c.label,
          item: c.href ? `${SITE}${c.href === "/" ? "/" : c.href}` : url,
        })),
      },
      {
        "@type": "Article",
        headline: e.title,
        description: e.excerpt,
        datePublished: e.date,
        inLanguage: page.lang,
        author: { "@type": "Person", name: e.author },
        publisher: { "@type": "Organization", name: BRAND },
        mainEntityOfPage: url,
      },
    ],
  };
  return (
    <html lang={page.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={e.excerpt} />
        <link rel="canonical" href={url} />
        {head.alternates.map((a) => (
          <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />
        ))}
        <meta property="og:type" content="article" />
        <meta property="og:title" content={e.title} />
        <meta property="og:locale" content={head.ogLocale} />
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, "\\u003c") }}
        />
      </head>
      <body>
        <Page.Provider value={page}>{children}</Page.Provider>
      </body>
    </html>
  );
}

export function InsightPage() {
  const { t, entry, locale, languages, crumbs, formatDate } = usePage();
  const e = entry!.data as Record<string, string>;
  const other = languages.find((l) => !l.current)!;
  const paragraphs = e.body
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <>
      <header className="site-header">
        <a className="logo" href={locale === "pt" ? "/" : "/en/"}>
          {BRAND}
        </a>
        <nav aria-label={t("labels.mainNav")}>
          <ul>
            {NAV[locale].map(([label, href]) => (
              <li key={href}>
                <a href={href}>{label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <a className="lang-switch" hrefLang={other.lang} href={other.href}>
          {t("labels.switch")}
        </a>
      </header>
      <nav className="breadcrumb" aria-label={t("labels.breadcrumb")}>
        <ol>
          {crumbs.map((c, i) => (
            <li key={i}>{c.href ? <a href={c.href}>{c.label}</a> : <span aria-current="page">{c.label}</span>}</li>
          ))}
        </ol>
      </nav>
      <main>
        <article className="insight">
          <h1>{e.title}</h1>
          <p className="meta">
            <time dateTime={e.date}>{formatDate(e.date)}</time> {t("labels.by")}{" "}
            <span className="author">{e.author}</span>
          </p>
          <p className="lead">{e.excerpt}</p>
          {paragraphs.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </article>
      </main>
      <footer className="site-footer">
        <div className="footer-columns">
          {FOOTER[locale].map(([heading, links]) => (
            <section key={heading}>
              <h2>{heading}</h2>
              <ul>
                {links.map(([label, href]) => (
                  <li key={href}>
                    <a href={href}>{label}</a>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
        <p className="copyright">{`© 2026 ${BRAND}. ${t("labels.rights")}`}</p>
      </footer>
    </>
  );
}
