import { usePage } from "../components/page-context.tsx";
import { PageHero } from "../components/blocks.tsx";
import { PostList } from "../components/PostList.tsx";

/** The articles of one tag (PageData.listing.group), newest first, paginated as the listing is. */
export default function InsightsTagPage() {
  const { t, listing, href } = usePage();
  const { label } = listing!.group!;
  return (
    <>
      <PageHero art="insights" eyebrow={t("insights.tags.heading")} title={label} lead={t("insights.tag.lead")} />
      <PostList heading={label}>
        <p className="feed-link">
          <a href={href("insights.tags")}>{t("insights.tag.allTags")}</a>
        </p>
      </PostList>
    </>
  );
}
