import { usePage } from "../components/page-context.tsx";
import { PageHero } from "../components/blocks.tsx";
import { leadCoverSizes, PostCard } from "../components/PostCard.tsx";

/** The articles, newest first, twelve a page, with links to the other pages and to the feed. */
export default function InsightsPage() {
  const { t, listing, languages, locale } = usePage();
  const { entries, page, pages, pagePath } = listing!;
  const feed = `${languages.find((l) => l.code === locale)!.href.replace(/\/page\/\d+$/, "")}/rss.xml`;
  return (
    <>
      <PageHero motif="insights" title={t("insights.listing.heading")} lead={t("insights.intro")} />
      <section className="section" aria-labelledby="insights-list-title">
        <div className="container">
          <h2 id="insights-list-title" className="visually-hidden">
            {pages > 1 ? t("pagination.current", { page, pages }) : t("insights.listing.heading")}
          </h2>
          <ul className="card-grid cols-3 post-list">
            {/* The first cover is the largest image above the fold on every screen: fetched first, not lazily. */}
            {entries.map((entry, i) => (
              <PostCard key={entry.key} entry={entry} priority={i === 0} sizes={i === 0 ? leadCoverSizes(entries.length) : undefined} />
            ))}
          </ul>
          {pages > 1 && (
            <nav className="pagination" aria-label={t("pagination.label")}>
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
          )}
          <p className="feed-link">
            <a href={feed} type="application/rss+xml">
              {t("insights.listing.feedLabel")}
            </a>
          </p>
        </div>
      </section>
    </>
  );
}
