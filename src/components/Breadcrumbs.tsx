import { usePage } from "./page-context.tsx";

/** The visible trail; the same crumbs feed the BreadcrumbList in JSON-LD, so the two never disagree. */
export function Breadcrumbs() {
  const { crumbs, t } = usePage();
  return (
    <nav className="breadcrumbs container" aria-label={t("a11y.breadcrumbs")}>
      <ol>
        {crumbs.map((crumb, i) => (
          <li key={i}>
            {crumb.href ? <a href={crumb.href}>{crumb.label}</a> : <span aria-current="page">{crumb.label}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
