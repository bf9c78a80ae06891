import { usePage } from "../components/page-context.tsx";
import { PageHero } from "../components/blocks.tsx";
import { routes, unprefixedPath } from "../generator/routes.ts";

/** Every segment of the site's own paths: the ones that can have a content label. */
const SEGMENTS = [...new Set(routes.flatMap((r) => unprefixedPath(r.paths.pt).split("/").filter(Boolean)))];

/**
 * The trail of the address actually asked for, built in the browser (src/islands/path-breadcrumbs.ts):
 * this one file answers every unknown address. Hidden until built.
 */
function PathBreadcrumbs() {
  const { t, has, islands } = usePage();
  const labels = Object.fromEntries(SEGMENTS.filter((s) => has(`breadcrumbs.${s}`)).map((s) => [s, t(`breadcrumbs.${s}`)]));
  const props = { home: { label: t("breadcrumbs.home") }, labels };
  return (
    <nav className="breadcrumbs container" aria-label={t("a11y.breadcrumbs")} hidden data-island="path-breadcrumbs" data-when="load" data-src={islands["path-breadcrumbs"]} data-props={JSON.stringify(props)}>
      <ol />
    </nav>
  );
}

export default function NotFoundPage() {
  const { t, href } = usePage();
  return (
    <>
      <PathBreadcrumbs />
      <PageHero eyebrow="404" title={t("notFound.title")} lead={t("notFound.body")}>
        <a className="btn btn-primary" href={href("home")}>
          {t("notFound.home")}
        </a>
        <a className="btn btn-ghost" href={href("contact")}>
          {t("nav.contact")}
        </a>
      </PageHero>
    </>
  );
}
