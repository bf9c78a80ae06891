import { usePage } from "../components/page-context.tsx";
import { CtaBand } from "../components/blocks.tsx";
import { PostGrid } from "../components/PostCard.tsx";
import { Picture } from "../components/Picture.tsx";
import { TagLinks } from "../components/TagLinks.tsx";
import type { CollectionEntry } from "../generator/site-definition.ts";

/**
 * An article: its title, date, reading time and author; the body (Markdown rendered at build time,
 * raw HTML never passed through); its tags, each linked to its page; the author's box; related articles
 * (most tags in common) and the previous and next ones.
 */
export default function InsightPage() {
  const { t, entry, formatDate, collection, href } = usePage();
  const article = entry!;
  const all = collection("insights");
  const at = all.findIndex((e) => e.key === article.key);
  const newer = at > 0 ? all[at - 1] : undefined;
  const older = at >= 0 && at < all.length - 1 ? all[at + 1] : undefined;
  const tags = (article.data.tags as string[]) ?? [];
  const author = String(article.data.author);
  const date = String(article.data.date);
  const updated = article.data.updated ? String(article.data.updated) : undefined;
  return (
    <>
      <article className="article" aria-labelledby="article-title">
        <header className="page-hero article-hero">
          <div className="container">
            <p className="eyebrow">
              <a href={href("insights")}>{t("insights.listing.heading")}</a>
            </p>
            <h1 id="article-title">{String(article.data.title)}</h1>
            <p className="lead">{String(article.data.description)}</p>
            <p className="article-meta">
              {t("insights.article.by")} <a href={`${href("about")}#leadership`}>{t(`leadership.${author}.name`)}</a> · <time dateTime={date}>{formatDate(date)}</time> ·{" "}
              {t("insights.article.readingTime", { minutes: article.readingMinutes })}
              {updated && (
                <>
                  {" "}
                  · {t("insights.article.updated")} <time dateTime={updated}>{formatDate(updated)}</time>
                </>
              )}
            </p>
            {/* The page's largest image above the fold: fetched first, never lazily. */}
            {article.images?.cover && (
              <Picture image={article.images.cover} alt={article.data.coverAlt ? String(article.data.coverAlt) : ""} sizes="(min-width: 76rem) 72rem, 100vw" priority className="article-cover" />
            )}
          </div>
        </header>
        <div className="container article-body">
          <div className="prose article-prose" dangerouslySetInnerHTML={{ __html: article.html }} />
          <aside className="article-aside" aria-label={t("insights.article.tags")}>
            <h2 className="aside-heading">{t("insights.article.tags")}</h2>
            <TagLinks tags={tags} />
          </aside>
          <section className="author-box" aria-labelledby="author-title">
            <h2 id="author-title" className="aside-heading">
              {t("insights.article.authorHeading")}
            </h2>
            <p className="author-name">{t(`leadership.${author}.name`)}</p>
            <p className="role">{t(`leadership.${author}.title`)}</p>
            <p>
              <a href={`${href("about")}#leadership`}>{t("insights.article.authorLink")}</a>
            </p>
          </section>
        </div>
      </article>
      <Related entries={related(all, article, tags)} />
      <nav className="container article-sequence" aria-label={t("insights.article.sequence")}>
        {older && (
          <a href={older.path} rel="prev">
            <span>{t("insights.article.previous")}</span> {String(older.data.title)}
          </a>
        )}
        {newer && (
          <a href={newer.path} rel="next">
            <span>{t("insights.article.next")}</span> {String(newer.data.title)}
          </a>
        )}
        <a href={href("insights")}>{t("insights.article.allArticles")}</a>
      </nav>
      <CtaBand />
    </>
  );
}

/** Up to three other articles, those sharing the most tags first, then the newest. */
function related(all: CollectionEntry[], article: CollectionEntry, tags: string[]): CollectionEntry[] {
  // One pass, newest first, keeping the best three (no sort of the whole list), and over once three share
  // every tag of this article: no older article can come before them. Each article's page runs it, so with
  // thousands of articles a pass to the end for every page would grow with their square.
  const best: { entry: CollectionEntry; shared: number }[] = [];
  for (const entry of all) {
    if (entry.key === article.key) continue;
    const theirs = (entry.data.tags as string[]) ?? [];
    let shared = 0;
    for (const tag of tags) if (theirs.includes(tag)) shared++;
    if (shared === 0 || (best.length === 3 && shared <= best[2].shared)) continue;
    const at = best.findIndex((b) => b.shared < shared);
    best.splice(at < 0 ? best.length : at, 0, { entry, shared });
    if (best.length > 3) best.pop();
    if (best.length === 3 && best[2].shared === tags.length) break;
  }
  return best.map((b) => b.entry);
}

function Related({ entries }: { entries: CollectionEntry[] }) {
  const { t } = usePage();
  if (!entries.length) return null;
  return (
    <section className="section section-muted" aria-labelledby="related-title">
      <div className="container">
        <h2 id="related-title">{t("insights.article.related")}</h2>
        <PostGrid entries={entries} />
      </div>
    </section>
  );
}
