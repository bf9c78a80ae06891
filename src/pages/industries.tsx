import { usePage } from "../components/page-context.tsx";
import { ArrowLink, CardLink, CtaBand, PageHero, Prose, Section } from "../components/blocks.tsx";
import { TitledItems, UseCases } from "../components/industry-blocks.tsx";
import { SectorOutcomes } from "../components/proof.tsx";
import { CaseCards, useCases } from "../components/cases.tsx";
import { sectorIcons } from "../components/icons.tsx";
import { FurtherReading } from "../components/reading.tsx";
import { ROUTED_SECTORS, SECTOR_TOPICS } from "./sections.ts";

/** The headline figures each unrouted sector shows here; all of them are on the results page. */
const HEADLINE_STATS = { manufacturing: [1, 3, 5], healthcare: [1, 3] } as const;

/** Manufacturing and healthcare have no page of their own (spec §2): their full text lives here. */
function UnroutedSector({ sector, children }: { sector: "manufacturing" | "healthcare"; children?: React.ReactNode }) {
  const { t, href } = usePage();
  const base = `industries.${sector}`;
  const Icon = sectorIcons[sector];
  const cases = useCases({ sector });
  return (
    <Section id={sector} tone={sector === "manufacturing" ? "muted" : undefined} title={t(`${base}.name`)} intro={t(`${base}.summary`)}>
      <Icon className="section-icon" size={32} />
      <Prose text={t(`${base}.intro`)} />
      <h3>{t("industries.resultsHeading")}</h3>
      <SectorOutcomes sector={sector} only={HEADLINE_STATS[sector]} />
      <ArrowLink href={`${href("results")}#${sector}`}>{t("results.seeAll")}</ArrowLink>
      <h3>{t("industries.challengesHeading")}</h3>
      <TitledItems prefix={base} item="challenge" level={4} />
      <h3>{t("industries.solutionsHeading")}</h3>
      <TitledItems prefix={base} item="solution" level={4} />
      <h3>{t("industries.useCasesHeading")}</h3>
      <UseCases prefix={base} level={4} />
      {cases.length > 0 && (
        <>
          <h3>{t("results.related.heading")}</h3>
          <CaseCards entries={cases} level={4} />
        </>
      )}
      {children}
      <h3>{t("industries.readingHeading")}</h3>
      <FurtherReading topics={SECTOR_TOPICS[sector]} level={4} />
    </Section>
  );
}

export default function IndustriesPage() {
  const { t, href } = usePage();
  return (
    <>
      <PageHero art="industries" eyebrow={t("nav.industries")} title={t("industries.heading")} lead={t("industries.intro")} />
      <Section id="sectors" title={t("labels.sectors")}>
        <ul className="card-grid cols-3">
          {Object.entries(ROUTED_SECTORS).map(([slug, sector]) => {
            const Icon = sectorIcons[sector];
            return (
              <li key={slug} className="card">
                <Icon className="card-icon" size={28} />
                <h3>
                  <CardLink href={href(`industries.${slug}`)}>{t(`industries.${sector}.name`)}</CardLink>
                </h3>
                <p>{t(`industries.${sector}.summary`)}</p>
              </li>
            );
          })}
        </ul>
      </Section>
      <UnroutedSector sector="manufacturing">
        {/* Logistics and the public sector have a heading of their own, so they are not read as industry's. */}
        <h3>{t("industries.alsoHeading")}</h3>
        <div className="card-grid cols-2">
          <div className="card">
            <h4>{t("industries.manufacturing.logistics.title")}</h4>
            <Prose text={t("industries.manufacturing.logistics.body")} />
          </div>
          <div className="card">
            <h4>{t("industries.manufacturing.publicSector.title")}</h4>
            <Prose text={t("industries.manufacturing.publicSector.body")} />
          </div>
        </div>
      </UnroutedSector>
      <UnroutedSector sector="healthcare" />
      <CtaBand />
    </>
  );
}
