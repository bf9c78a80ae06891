import { usePage } from "../components/page-context.tsx";
import { PageHero } from "../components/blocks.tsx";
import { PostList } from "../components/PostList.tsx";
import { TagLinks, tagCounts } from "../components/TagLinks.tsx";

/** The articles, newest first, twelve a page, with links to the other pages, to each tag's page and to the feed. */
export default function InsightsPage() {
  const { t, languages, locale, collection, lang } = usePage();
  const feed = `${languages.find((l) => l.code === locale)!.href.replace(/\/page\/\d+$/, "")}/rss.xml`;
  const tags = tagCounts(collection("insights"), (id) => t(`tags.${id}`), lang);
  return (
    <>
      <PageHero art="insights" title={t("insights.listing.heading")} lead={t("insights.intro")} />
      <PostList heading={t("insights.listing.heading")}>
        {tags.length > 0 && (
          <nav className="listing-tags" aria-labelledby="listing-tags-title">
            <h2 id="listing-tags-title" className="aside-heading">
              {t("insights.listing.tagsHeading")}
            </h2>
            <TagLinks tags={tags.map((tag) => tag.id)} />
          </nav>
        )}
        <p className="feed-link">
          <a href={feed} type="application/rss+xml">
            {t("insights.listing.feedLabel")}
          </a>
        </p>
      </PostList>
    </>
  );
}
