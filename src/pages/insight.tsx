import { usePage } from "../components/page-context.tsx";
import { CtaBand } from "../components/blocks.tsx";
import { PostGrid } from "../components/PostCard.tsx";
import { Picture } from "../components/Picture.tsx";
import { TagLinks } from "../components/TagLinks.tsx";
import { relatedArticles } from "./related-articles.ts";
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
  const at = placeOf(all, article.key);
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
          <div className="prose article-prose" dangerouslySetInnerHTML={{ __html: framedTables(article.html, t("insights.article.tableHint"), t("insights.article.tableLabel")) }} />
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
      <Related entries={relatedArticles(all, article, tags)} />
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

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Each table of the body in a frame that scrolls sideways on a phone, says so above it, and takes keyboard
 * focus as a named region, so that the arrow keys scroll it (the cookie policy's table does the same).
 */
export function framedTables(html: string, hint: string, label: string): string {
  let n = 0;
  return html.replace(/<table>([\s\S]*?)<\/table>/g, (table) => {
    n += 1;
    const name = escapeHtml(label.replace("{n}", String(n)));
    return `<p class="table-hint">${escapeHtml(hint)}</p><div class="table-wrap" role="region" tabindex="0" aria-label="${name}">${table}</div>`;
  });
}

/** Each article's place in its list, by key: the list is gone through once, not searched again for each article's page. */
const places = new WeakMap<CollectionEntry[], Map<string, number>>();

function placeOf(all: CollectionEntry[], key: string): number {
  let byKey = places.get(all);
  if (!byKey) {
    byKey = new Map();
    // From the end, so that the first of two entries with one key keeps its place, as a search from the start would find it.
    for (let i = all.length - 1; i >= 0; i--) byKey.set(all[i].key, i);
    places.set(all, byKey);
  }
  return byKey.get(key) ?? -1;
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
