import { Globe, Menu } from "./icons.tsx";
import { usePage } from "./page-context.tsx";
import { SameOnEveryPage } from "./SameOnEveryPage.tsx";
import { SERVICE_LINES, ROUTED_SECTORS, UNROUTED_SECTORS } from "../pages/sections.ts";

/**
 * Site header. The menu is a native popover: on small screens the button opens it with no JavaScript, and
 * keyboard users get Escape and light dismiss from the browser; on wide screens CSS shows it inline.
 */
export function Header() {
  const page = usePage();
  return (
    <header className="site-header">
      <div className="container header-inner">
        {/* The brand and the menu differ only by the route they mark as current. */}
        <SameOnEveryPage page={page} id={`header ${page.route?.id ?? ""}`}>
          <BrandAndMenu />
        </SameOnEveryPage>
        <LanguageSwitcher />
      </div>
    </header>
  );
}

function BrandAndMenu() {
  const { t, href, route, site } = usePage();
  const current = (id: string) => (route?.id === id ? ("page" as const) : undefined);
  const within = (id: string) => (route?.id.startsWith(`${id}.`) ? "is-active" : undefined);
  return (
    <>
      <a className="brand" href={href("home")} aria-current={current("home")}>
        <span className="brand-mark" aria-hidden="true">
          {site.brand.charAt(0)}
        </span>
        {site.brand}
      </a>
      <button type="button" className="menu-toggle" popoverTarget="site-menu">
        <Menu size={20} />
        <span>{t("nav.menu")}</span>
      </button>
      <nav id="site-menu" className="site-nav" popover="auto" aria-label={t("a11y.mainNav")}>
        <ul className="nav-list">
          <li>
            <a href={href("home")} aria-current={current("home")}>
              {t("nav.home")}
            </a>
          </li>
          <li className="has-sub">
            <a href={href("services")} aria-current={current("services")} className={within("services")}>
              {t("nav.services")}
            </a>
            <ul className="sub-nav">
              {SERVICE_LINES.map((line) => (
                <li key={line}>
                  <a href={href(`services.${line}`)} aria-current={current(`services.${line}`)}>
                    {t(`nav.${line}`)}
                  </a>
                </li>
              ))}
            </ul>
          </li>
          <li>
            <a href={href("technologies")} aria-current={current("technologies")}>
              {t("nav.technologies")}
            </a>
          </li>
          <li className="has-sub">
            <a href={href("industries")} aria-current={current("industries")} className={within("industries")}>
              {t("nav.industries")}
            </a>
            <ul className="sub-nav">
              {Object.entries(ROUTED_SECTORS).map(([slug, sector]) => (
                <li key={slug}>
                  <a href={href(`industries.${slug}`)} aria-current={current(`industries.${slug}`)}>
                    {t(`industries.${sector}.name`)}
                  </a>
                </li>
              ))}
              {UNROUTED_SECTORS.map((sector) => (
                <li key={sector}>
                  <a href={`${href("industries")}#${sector}`}>{t(`industries.${sector}.name`)}</a>
                </li>
              ))}
            </ul>
          </li>
          <li>
            <a href={href("about")} aria-current={current("about")}>
              {t("nav.about")}
            </a>
          </li>
          <li>
            <a href={href("insights")} aria-current={route?.id === "insights" ? "page" : undefined}>{t("nav.insights")}</a>
          </li>
          <li>
            <a className="btn btn-primary nav-cta" href={href("contact")} aria-current={current("contact")}>
              {t("nav.contact")}
            </a>
          </li>
        </ul>
      </nav>
    </>
  );
}

/**
 * The language switcher: with two locales, one link to this page in the other language (spec §2); with
 * more, a menu of every other language, each named in its own language. Pages without a route (not
 * found, form results, errors) are one file for many addresses: the browser sets each link from the
 * address (add or remove the locale's prefix); without JavaScript the links lead to each locale's home.
 */
function LanguageSwitcher() {
  const { t, route, languages, locale } = usePage();
  const others = languages.filter((l) => !l.current);
  const byPrefix = route ? undefined : "by-prefix";
  if (others.length === 1) {
    const other = others[0];
    return (
      <a className="lang-switch" href={other.href} hrefLang={other.lang} lang={other.lang} data-lang-switch={other.code} data-current-lang={locale} data-counterpart={byPrefix} data-tooltip={t("languageSwitcher.tooltip")}>
        <Globe size={18} />
        <span>{t("languageSwitcher.label")}</span>
      </a>
    );
  }
  return (
    <div className="lang-menu">
      <button type="button" className="lang-switch" popoverTarget="language-menu">
        <Globe size={18} />
        <span>{t("languageSwitcher.menu")}</span>
      </button>
      <ul id="language-menu" className="lang-menu-list" popover="auto">
        {others.map((other) => (
          <li key={other.code}>
            <a href={other.href} hrefLang={other.lang} lang={other.lang} data-lang-switch={other.code} data-current-lang={locale} data-counterpart={byPrefix}>
              {languageName(other.lang)}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A language's name in that language ("Español"), from the platform's own data. */
function languageName(lang: string): string {
  const name = new Intl.DisplayNames([lang], { type: "language" }).of(lang) ?? lang;
  return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
}
