import { Globe, Menu } from "./icons.tsx";
import { usePage } from "./page-context.tsx";
import { SERVICE_LINES, ROUTED_SECTORS, UNROUTED_SECTORS } from "../pages/sections.ts";

/**
 * Site header. The menu is a native popover: on small screens the button opens it with no JavaScript, and
 * keyboard users get Escape and light dismiss from the browser; on wide screens CSS shows it inline.
 */
export function Header() {
  const page = usePage();
  const marked = markedRoute(page.route?.id);
  return (
    <header className="site-header">
      <div className="container header-inner">
        <BrandAndMenu marked={marked} />
        <LanguageSwitcher />
      </div>
    </header>
  );
}

/** The routes the menu links to. */
const MENU_ROUTES = new Set([
  "home",
  "services",
  ...SERVICE_LINES.map((line) => `services.${line}`),
  "technologies",
  "industries",
  ...Object.keys(ROUTED_SECTORS).map((slug) => `industries.${slug}`),
  "about",
  "insights",
  "contact",
]);

/**
 * What the menu marks for a route: the route if the menu links to it, else the section it is within ("services."),
 * else nothing.
 */
function markedRoute(id: string | undefined): string {
  if (id === undefined) return "";
  if (MENU_ROUTES.has(id)) return id;
  return ["services.", "industries.", "insights."].find((section) => id.startsWith(section)) ?? "";
}

/** The brand and the menu, marking the current route (aria-current) and the section the page is within. */
function BrandAndMenu({ marked }: { marked: string }) {
  const { t, href, site } = usePage();
  const current = (id: string) => (marked === id ? ("page" as const) : undefined);
  const within = (id: string) => (marked.startsWith(`${id}.`) ? "is-active" : undefined);
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
            <a href={href("insights")} aria-current={current("insights")} className={within("insights")}>
              {t("nav.insights")}
            </a>
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
      <a
        className="lang-switch"
        href={other.href}
        hrefLang={other.lang}
        lang={other.lang}
        data-lang-switch={other.code}
        data-current-lang={locale}
        data-counterpart={byPrefix}
        data-tooltip={t("languageSwitcher.tooltip")}
      >
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
            <a
              href={other.href}
              hrefLang={other.lang}
              lang={other.lang}
              data-lang-switch={other.code}
              data-current-lang={locale}
              data-counterpart={byPrefix}
            >
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
