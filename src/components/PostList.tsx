import type { ReactNode } from "react";
import { usePage } from "./page-context.tsx";
import { PostGrid } from "./PostCard.tsx";

/**
 * A listing page's articles (PageData.listing): the card grid, newest first, and the links to the
 * listing's other pages; what the Insights listing and each tag's listing show alike. `heading` names the
 * list for assistive technology when the listing has one page; `children` follow the list.
 */
export function PostList({ heading, children }: { heading: string; children?: ReactNode }) {
  const { t, listing } = usePage();
  const { entries, page, pages } = listing!;
  return (
    <section className="section" aria-labelledby="insights-list-title">
      <div className="container">
        <h2 id="insights-list-title" className="visually-hidden">
          {pages > 1 ? t("pagination.current", { page, pages }) : heading}
        </h2>
        {/* The first cover is the largest image above the fold on every screen: fetched first, not lazily. */}
        <PostGrid entries={entries} lead />
        <Pagination />
        {children}
      </div>
    </section>
  );
}

/** The links to a listing's other pages, when it has more than one; `label` names them (default: the articles'). */
export function Pagination({ label }: { label?: string }) {
  const { t, listing } = usePage();
  if (!listing || listing.pages < 2) return null;
  const { page, pages, pagePath } = listing;
  return (
    <nav className="pagination" aria-label={label ?? t("pagination.label")}>
      {page > 1 && (
        <a href={pagePath(page - 1)} rel="prev">
          {t("pagination.previous")}
        </a>
      )}
      <ol>
        {Array.from({ length: pages }, (_, i) => i + 1).map((n) => (
          <li key={n}>
            {n === page ? (
              <span aria-current="page">{n}</span>
            ) : (
              <a href={pagePath(n)} aria-label={t("pagination.page", { page: n })}>
                {n}
              </a>
            )}
          </li>
        ))}
      </ol>
      {page < pages && (
        <a href={pagePath(page + 1)} rel="next">
          {t("pagination.next")}
        </a>
      )}
    </nav>
  );
}
