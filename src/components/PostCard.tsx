import type { CollectionEntry } from "../generator/site-definition.ts";
import { usePage } from "./page-context.tsx";
import { Picture } from "./Picture.tsx";

/** A card's width: a third of the container from 64rem, half from 48rem, else the screen less the gutters. */
const CARD_SIZES = "(min-width: 64rem) 23rem, (min-width: 48rem) 50vw, 100vw";

/**
 * The cover's width for the first card of a `.post-list` of `count` cards. Where the count would leave one
 * card alone on the last row (articles.css), the first card takes the whole row with its cover beside its
 * text: wider than a card's cover in three columns (from 64rem), as wide as one in two.
 */
export function leadCoverSizes(count: number): string {
  return `(min-width: 64rem) ${count % 3 === 1 ? "38rem" : "23rem"}, (min-width: 48rem) 50vw, 100vw`;
}

/** A card's cover in a two-column grid: half the container from 48rem, else the screen less the gutters. */
const HALF_SIZES = "(min-width: 64rem) 35rem, (min-width: 48rem) 50vw, 100vw";

/**
 * Articles as a grid of cards (home, listings, related): three columns, or two for two cards, which then
 * share the row in halves at every width rather than leave a third column empty. `lead`: the first cover
 * is the page's largest image above the fold, fetched first.
 */
export function PostGrid({ entries, lead = false }: { entries: CollectionEntry[]; lead?: boolean }) {
  const two = entries.length === 2;
  return (
    <ul className={`card-grid ${two ? "cols-2" : "cols-3"} post-list`}>
      {entries.map((entry, i) => (
        <PostCard
          key={entry.key}
          entry={entry}
          priority={lead && i === 0}
          sizes={two ? HALF_SIZES : i === 0 ? leadCoverSizes(entries.length) : undefined}
        />
      ))}
    </ul>
  );
}

/**
 * An article in a list (home, listing, related): its cover (decoration: the title beside it says what it
 * is about), date, title linked to it, excerpt and reading time. `priority` for the card whose cover is the
 * page's main image above the fold (a listing's first), fetched first; every other cover loads lazily.
 */
export function PostCard({
  entry,
  headingLevel = 3,
  priority = false,
  sizes = CARD_SIZES,
}: {
  entry: CollectionEntry;
  headingLevel?: 2 | 3;
  priority?: boolean;
  sizes?: string;
}) {
  const { t, formatDate } = usePage();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const id = `post-${entry.slug}`;
  const date = String(entry.data.date);
  return (
    <li className="card post">
      <article aria-labelledby={id}>
        {entry.images?.cover && (
          <Picture image={entry.images.cover} alt="" sizes={sizes} className="post-cover" priority={priority} />
        )}
        <p className="meta">
          <time dateTime={date}>{formatDate(date)}</time> ·{" "}
          {t("insights.article.readingTime", { minutes: entry.readingMinutes })}
        </p>
        <Heading id={id}>
          <a href={entry.path}>{String(entry.data.title)}</a>
        </Heading>
        <p>{String(entry.data.description)}</p>
      </article>
    </li>
  );
}
