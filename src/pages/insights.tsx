import { usePage } from "../components/page-context.tsx";
import { PageHero } from "../components/blocks.tsx";
import { PostList } from "../components/PostList.tsx";

/** The articles, newest first, twelve a page, with links to the other pages and to the feed. */
export default function InsightsPage() {
  const { t, languages, locale } = usePage();
  const feed = `${languages.find((l) => l.code === locale)!.href.replace(/\/page\/\d+$/, "")}/rss.xml`;
  return (
    <>
      <PageHero motif="insights" title={t("insights.listing.heading")} lead={t("insights.intro")} />
      <PostList heading={t("insights.listing.heading")}>
        <p className="feed-link">
          <a href={feed} type="application/rss+xml">
            {t("insights.listing.feedLabel")}
          </a>
        </p>
      </PostList>
    </>
  );
}
