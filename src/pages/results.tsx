import { usePage } from "../components/page-context.tsx";
import { CtaBand, PageHero, Prose, Section } from "../components/blocks.tsx";
import { CaseCards } from "../components/cases.tsx";
import { Pagination } from "../components/PostList.tsx";
import { SectorOutcomes } from "../components/proof.tsx";
import { ALL_SECTORS } from "./sections.ts";

/**
 * The results page: the firm's cases (the `cases` collection, newest first, twelve a page) when it has
 * published any, then on the first page the typical results of each sector that has figures, and how every
 * project's results are measured. Without a case it is a page of typical results, never an empty list.
 */
export default function ResultsPage() {
  const { t, count, listing } = usePage();
  const entries = listing?.entries ?? [];
  const first = (listing?.page ?? 1) === 1;
  const sectors = ALL_SECTORS.filter((sector) => count(`industries.${sector}`, "stat") > 0);
  return (
    <>
      <PageHero art="results" title={t("results.page.heading")} lead={t("results.page.intro")} />
      {entries.length > 0 && (
        <Section id="cases" title={t("results.page.casesHeading")} intro={t("results.page.casesIntro")}>
          <CaseCards entries={entries} />
          <Pagination label={t("results.page.casesHeading")} />
        </Section>
      )}
      {first && (
        <>
          <Section
            id="typical"
            tone="muted"
            title={t("results.page.typicalHeading")}
            intro={t("results.page.typicalIntro")}
          >
            {sectors.map((sector) => (
              <div key={sector} id={sector} className="results-sector">
                <h3>{t(`industries.${sector}.name`)}</h3>
                <SectorOutcomes sector={sector} note={false} />
              </div>
            ))}
          </Section>
          <Section id="how" split title={t("results.page.howHeading")}>
            <Prose text={t("results.page.how")} className="prose how-we-measure" />
          </Section>
        </>
      )}
      <CtaBand heading={t("cta.results.heading")} body={t("cta.results.body")} />
    </>
  );
}
