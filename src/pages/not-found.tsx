import { usePage } from "../components/page-context.tsx";
import { CardLink, QuietPage, Section } from "../components/blocks.tsx";

/**
 * The trail of the address actually asked for, built in the browser (src/islands/path-breadcrumbs.ts):
 * this one file answers every unknown address. Hidden until built. The island also swaps in the other
 * language's not-found page when a host answered an address with the wrong one.
 */
function PathBreadcrumbs() {
  const { t, has, islands, locale, routes, site, notFoundPaths } = usePage();
  // The content label of every route of this locale (breadcrumbs.<route id>), by its address.
  const labels = Object.fromEntries(
    routes.flatMap((r) =>
      r.paths[locale] && has(`breadcrumbs.${r.id}`) ? [[r.paths[locale], t(`breadcrumbs.${r.id}`)]] : [],
    ),
  );
  const locales = site.locales.map((l) => ({ code: l.code, prefix: l.prefix }));
  const props = { home: { label: t("breadcrumbs.home") }, labels, locale, locales, notFoundPages: notFoundPaths };
  return (
    <nav
      className="breadcrumbs container"
      aria-label={t("a11y.breadcrumbs")}
      hidden
      data-island="path-breadcrumbs"
      data-when="load"
      data-src={islands["path-breadcrumbs"]}
      data-props={JSON.stringify(props)}
    >
      <ol />
    </nav>
  );
}

/** The main sections, each described by its own page's description. */
const SUGGESTIONS = ["services", "industries", "technologies", "about"] as const;

export default function NotFoundPage() {
  const { t, href } = usePage();
  return (
    <>
      <PathBreadcrumbs />
      <QuietPage visual="notFound" eyebrow="404" title={t("notFound.title")} lead={t("notFound.body")}>
        <a className="btn btn-primary" href={href("home")}>
          {t("notFound.home")}
        </a>
        <a className="btn btn-ghost" href={href("contact")}>
          {t("nav.contact")}
        </a>
      </QuietPage>
      <Section id="suggestions" title={t("notFound.suggestionsHeading")}>
        <ul className="card-grid cols-4">
          {SUGGESTIONS.map((id) => (
            <li key={id} className="card">
              <h3>
                <CardLink href={href(id)}>{t(`nav.${id}`)}</CardLink>
              </h3>
              <p>{t(`meta.${id}.description`)}</p>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
