import { usePage } from "../components/page-context.tsx";
import { CtaBand, Monogram } from "../components/blocks.tsx";
import { NewsletterSlot } from "../components/NewsletterSlot.tsx";
import { TOPIC_SERVICE } from "./sections.ts";
import { PostGrid } from "../components/PostCard.tsx";
import { Picture } from "../components/Picture.tsx";
import { TagLinks } from "../components/TagLinks.tsx";
import { relatedArticles } from "./related-articles.ts";
import type { CollectionEntry } from "../generator/site-definition.ts";

/**
 * An article, set for reading: one column of about seventy characters in a larger type, the author, date and
 * topics at the top; the body (Markdown rendered at build time, raw HTML never passed through); then the
 * newsletter, related articles (most tags in common), the previous and next ones, and a closing call that
 * names the line of service the article's subject belongs to.
 */
export default function InsightPage() {
  const { t, entry, formatDate, collection, href, image } = usePage();
  const article = entry!;
  const all = collection("insights");
  const at = placeOf(all, article.key);
  const newer = at > 0 ? all[at - 1] : undefined;
  const older = at >= 0 && at < all.length - 1 ? all[at + 1] : undefined;
  const tags = (article.data.tags as string[]) ?? [];
  const author = String(article.data.author);
  const authorName = t(`leadership.${author}.name`);
  const portrait = image(`leadership.${author}.photo`);
  const date = String(article.data.date);
  const updated = article.data.updated ? String(article.data.updated) : undefined;
  const line = tags.map((tag) => TOPIC_SERVICE[tag]).find(Boolean);
  const service = line ? t(`services.${line}.name`) : "";
  return (
    <>
      <article className="article" aria-labelledby="article-title">
        <header className="page-hero article-hero">
          <div className="container article-column">
            <p className="eyebrow">
              <a href={href("insights")}>{t("insights.listing.heading")}</a>
            </p>
            <h1 id="article-title">{String(article.data.title)}</h1>
            <p className="lead">{String(article.data.description)}</p>
            <div className="byline">
              {portrait ? (
                <Picture image={portrait} alt="" sizes="3rem" className="portrait" />
              ) : (
                <Monogram name={authorName} />
              )}
              <p>
                <span className="byline-name">
                  {t("insights.article.by")} <a href={`${href("about")}#leadership`}>{authorName}</a>
                </span>
                <span className="byline-role">{t(`leadership.${author}.title`)}</span>
              </p>
            </div>
            <p className="article-meta">
              <time dateTime={date}>{formatDate(date)}</time> ·{" "}
              {t("insights.article.readingTime", { minutes: article.readingMinutes })}
              {updated && (
                <>
                  {" "}
                  · {t("insights.article.updated")} <time dateTime={updated}>{formatDate(updated)}</time>
                </>
              )}
            </p>
            <div className="article-tags">
              <h2 className="visually-hidden">{t("insights.article.tags")}</h2>
              <TagLinks tags={tags} />
            </div>
            {/* The page's largest image above the fold: fetched first, never lazily; wider than the column from
                64rem. */}
            {article.images?.cover && (
              <Picture
                image={article.images.cover}
                alt={article.data.coverAlt ? String(article.data.coverAlt) : ""}
                sizes="(min-width: 76rem) 68rem, 100vw"
                priority
                className="article-cover"
              />
            )}
          </div>
        </header>
        <div className="container article-column">
          <div
            className="prose article-prose"
            dangerouslySetInnerHTML={{
              __html: framedTables(article.html, t("insights.article.tableHint"), t("insights.article.tableLabel")),
            }}
          />
        </div>
      </article>
      <section className="container article-column article-newsletter" aria-labelledby="article-newsletter-title">
        <h2 id="article-newsletter-title">{t("insights.article.newsletterHeading")}</h2>
        <p>{t("newsletter.description")}</p>
        <NewsletterSlot id="article-newsletter" />
      </section>
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
      <CtaBand heading={t("cta.article.heading")} body={line ? t("cta.article.body", { service }) : t("cta.home.body")}>
        {line && (
          <a className="btn btn-ghost" href={href(`services.${line}`)}>
            {service}
          </a>
        )}
      </CtaBand>
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
    const frame = `<div class="table-wrap" role="region" tabindex="0" aria-label="${name}">${table}</div>`;
    return `<p class="table-hint">${escapeHtml(hint)}</p>${frame}`;
  });
}

/**
 * Each article's place in its list, by key: the list is gone through once, not searched again for each article's
 * page.
 */
const places = new WeakMap<CollectionEntry[], Map<string, number>>();

function placeOf(all: CollectionEntry[], key: string): number {
  let byKey = places.get(all);
  if (!byKey) {
    byKey = new Map();
    // From the end, so that the first of two entries with one key keeps its place, as a search from the start would
    // find it.
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
