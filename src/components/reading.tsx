import type { CollectionEntry } from "../generator/site-definition.ts";
import { usePage } from "./page-context.tsx";

/**
 * Up to three articles on these topics (tags), the first topic weighing most: an article's score is the sum of
 * the weights of the topics it carries (the last topic 1, the one before 2...); the newest first among equals.
 */
export function useReading(topics: readonly string[]): CollectionEntry[] {
  const { collection } = usePage();
  const weightOf = (tag: string) => (topics.includes(tag) ? topics.length - topics.indexOf(tag) : 0);
  const weight = (entry: CollectionEntry) =>
    ((entry.data.tags as string[]) ?? []).reduce((sum, tag) => sum + weightOf(tag), 0);
  // The collection is newest first and the sort is stable: equals keep that order.
  return collection("insights")
    .map((entry) => ({ entry, score: weight(entry) }))
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map((e) => e.entry);
}

/**
 * Articles as a short list of titles, each with its first topic and reading time: a sector's or a service's
 * further reading, lighter than the cards with covers the listings use.
 */
export function ReadingList({ entries, level = 3 }: { entries: CollectionEntry[]; level?: 3 | 4 }) {
  const { t } = usePage();
  const Heading = level === 3 ? "h3" : "h4";
  return (
    <ul className="reading-list">
      {entries.map((entry) => {
        const [tag] = (entry.data.tags as string[]) ?? [];
        return (
          <li key={entry.key}>
            {tag && <p className="reading-topic">{t(`tags.${tag}`)}</p>}
            <Heading>
              <a href={entry.path}>{String(entry.data.title)}</a>
            </Heading>
            <p className="reading-meta">
              {t("insights.article.by")} {t(`leadership.${String(entry.data.author)}.name`)} ·{" "}
              {t("insights.article.readingTime", { minutes: entry.readingMinutes })}
            </p>
          </li>
        );
      })}
    </ul>
  );
}

/** A sentence of one of the firm's articles (its `pullQuote`), set large, with its author and a link to it. */
export function PullQuote({ entry }: { entry: CollectionEntry }) {
  const { t } = usePage();
  if (!entry.data.pullQuote) return null;
  return (
    <figure className="pull-quote">
      <blockquote>
        <p>{String(entry.data.pullQuote)}</p>
      </blockquote>
      <figcaption>
        {t(`leadership.${String(entry.data.author)}.name`)},{" "}
        <cite>
          <a href={entry.path}>{String(entry.data.title)}</a>
        </cite>
      </figcaption>
    </figure>
  );
}

/** A sector's or a service's further reading: a quote from the first article beside the list of all of them. */
export function FurtherReading({ topics, level = 3 }: { topics: readonly string[]; level?: 3 | 4 }) {
  const entries = useReading(topics);
  if (!entries.length) return null;
  return (
    <div className="further-reading">
      <PullQuote entry={entries[0]} />
      <ReadingList entries={entries} level={level} />
    </div>
  );
}
