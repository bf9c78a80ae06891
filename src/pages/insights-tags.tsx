import { usePage } from "../components/page-context.tsx";
import { PageHero } from "../components/blocks.tsx";
import { tagCounts } from "../components/TagLinks.tsx";

/** Every tag of the articles in this language, by label, each linked to its page with its number of articles. */
export default function InsightsTagsPage() {
  const { t, collection, href, lang } = usePage();
  const tags = tagCounts(collection("insights"), (id) => t(`tags.${id}`), lang);
  return (
    <>
      <PageHero art="insights" title={t("insights.tags.heading")} lead={t("insights.tags.intro")} />
      <div className="section">
        <div className="container">
          <ul className="topic-list">
            {tags.map(({ id, count, label }) => (
              <li key={id}>
                <a href={href(`insights.tag:${id}`)}>{label}</a>
                <span>{t(count === 1 ? "insights.tags.countOne" : "insights.tags.countOther", { count })}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </>
  );
}
