import type { CollectionEntry } from "../generator/site-definition.ts";
import { usePage } from "./page-context.tsx";
import { CardLink, Section } from "./blocks.tsx";

/** How many results a case may give (`result1Value`..`result4Value` in its front matter). */
export const CASE_RESULTS = [1, 2, 3, 4] as const;

/** A case's measured results, in order: its figure, what it is, and what was measured. */
export function caseResults(entry: CollectionEntry): { value: string; label: string; context: string }[] {
  return CASE_RESULTS.filter((i) => entry.data[`result${i}Value`]).map((i) => ({
    value: String(entry.data[`result${i}Value`]),
    label: String(entry.data[`result${i}Label`] ?? ""),
    context: String(entry.data[`result${i}Context`] ?? ""),
  }));
}

/** The cases of one sector or one service line (front matter `sector`, `service`), newest first. */
export function useCases(filter: { sector?: string; service?: string } = {}): CollectionEntry[] {
  const { collection } = usePage();
  return collection("cases").filter(
    (c) =>
      (!filter.sector || c.data.sector === filter.sector) && (!filter.service || c.data.service === filter.service),
  );
}

/**
 * Cards of cases: sector, title (the link), the client as described, what changed, and the first result. A lone
 * card lays its result beside its text (results.css), so one case never stretches into an empty band.
 */
export function CaseCards({ entries, level = 3 }: { entries: CollectionEntry[]; level?: 3 | 4 }) {
  const { t } = usePage();
  const Heading = level === 3 ? "h3" : "h4";
  return (
    <ul className={`card-grid ${entries.length % 3 === 0 ? "cols-3" : "cols-2"} case-cards`}>
      {entries.map((entry) => {
        const [first] = caseResults(entry);
        return (
          <li key={entry.key} className="card case-card">
            <p className="case-sector">{t(`industries.${String(entry.data.sector)}.name`)}</p>
            <Heading>
              <CardLink href={entry.path!}>{String(entry.data.title)}</CardLink>
            </Heading>
            <p className="case-client">{String(entry.data.client)}</p>
            <p>{String(entry.data.description)}</p>
            {first && (
              <p className="case-figure">
                <span className="case-value">{first.value}</span> {first.label}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** A sector's or a service line's cases, as a band of its page: nothing at all when it has none. */
export function RelatedCases({
  id = "cases",
  filter,
  tone,
}: {
  id?: string;
  filter: { sector?: string; service?: string };
  tone?: "muted";
}) {
  const { t } = usePage();
  const entries = useCases(filter);
  if (!entries.length) return null;
  return (
    <Section id={id} tone={tone} title={t("results.related.heading")} intro={t("results.related.intro")}>
      <CaseCards entries={entries} />
    </Section>
  );
}
