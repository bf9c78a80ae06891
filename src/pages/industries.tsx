import { usePage } from "../components/page-context.tsx";
import { ArrowLink, CardLink, CtaBand, PageHero, PageIndex, Prose, Section } from "../components/blocks.tsx";
import { Challenges, Solutions, UseCases } from "../components/industry-blocks.tsx";
import { SectorOutcomes } from "../components/proof.tsx";
import { CaseCards, useCases } from "../components/cases.tsx";
import { FurtherReading } from "../components/reading.tsx";
import { sectorIcons } from "../components/icons.tsx";
import { ROUTED_SECTORS, SECTOR_TOPICS, UNROUTED_SECTORS } from "./sections.ts";

/** The headline figures each unrouted sector shows here; all of them are on the results page. */
const HEADLINE_STATS = { manufacturing: [1, 3, 5], healthcare: [1, 3] } as const;

type Unrouted = (typeof UNROUTED_SECTORS)[number];

/** The parts of an unrouted sector's section, in order: their anchors, for the page's index. */
function partsOf(sector: Unrouted, t: (key: string) => string, hasCases: boolean) {
  return [
    ["results", t("industries.resultsHeading")],
    ["challenges", t("industries.challengesHeading")],
    ["solutions", t("industries.solutionsHeading")],
    ["use-cases", t("industries.useCasesHeading")],
    ...(hasCases ? [["cases", t("results.related.heading")]] : []),
    ...(sector === "manufacturing" ? [["also", t("industries.alsoHeading")]] : []),
    ["reading", t("industries.readingHeading")],
  ].map(([part, label]) => ({ href: `#${sector}-${part}`, label }));
}

/** Manufacturing and healthcare have no page of their own (spec §2): their full text lives here. */
function UnroutedSector({ sector }: { sector: Unrouted }) {
  const { t, href } = usePage();
  const base = `industries.${sector}`;
  const cases = useCases({ sector });
  const part = (name: string) => `${sector}-${name}`;
  return (
    <Section
      id={sector}
      contained={false}
      className="indexed-section"
      title={t(`${base}.name`)}
      intro={t(`${base}.summary`)}
    >
      <Prose text={t(`${base}.intro`)} />
      <h3 id={part("results")}>{t("industries.resultsHeading")}</h3>
      <SectorOutcomes sector={sector} only={HEADLINE_STATS[sector]} />
      <ArrowLink href={`${href("results")}#${sector}`}>{t("results.seeAll")}</ArrowLink>
      <h3 id={part("challenges")}>{t("industries.challengesHeading")}</h3>
      <Challenges prefix={base} level={4} />
      <h3 id={part("solutions")}>{t("industries.solutionsHeading")}</h3>
      <Solutions prefix={base} level={4} />
      <h3 id={part("use-cases")}>{t("industries.useCasesHeading")}</h3>
      <UseCases prefix={base} level={4} />
      {cases.length > 0 && (
        <>
          <h3 id={part("cases")}>{t("results.related.heading")}</h3>
          <CaseCards entries={cases} level={4} />
        </>
      )}
      {sector === "manufacturing" && (
        // Logistics and the public sector have a heading of their own, so they are not read as industry's.
        <>
          <h3 id={part("also")}>{t("industries.alsoHeading")}</h3>
          <div className="ruled-list">
            {(["logistics", "publicSector"] as const).map((key) => (
              <div key={key}>
                <h4>{t(`${base}.${key}.title`)}</h4>
                <Prose text={t(`${base}.${key}.body`)} />
              </div>
            ))}
          </div>
        </>
      )}
      <h3 id={part("reading")}>{t("industries.readingHeading")}</h3>
      <FurtherReading topics={SECTOR_TOPICS[sector]} level={4} />
    </Section>
  );
}

/**
 * The sectors: the six with pages of their own as linked tiles, then manufacturing and healthcare in full,
 * beside an index of the page that stays in view on wide screens (the page is long on a phone).
 */
export default function IndustriesPage() {
  const { t, href, collection } = usePage();
  const cases = collection("cases");
  const index = [
    { href: "#sectors", label: t("labels.sectors") },
    ...UNROUTED_SECTORS.map((sector) => ({
      href: `#${sector}`,
      label: t(`industries.${sector}.name`),
      children: partsOf(
        sector,
        t,
        cases.some((c) => c.data.sector === sector),
      ),
    })),
  ];
  return (
    <>
      <PageHero
        art="industries"
        eyebrow={t("nav.industries")}
        title={t("industries.heading")}
        lead={t("industries.intro")}
      />
      <div className="container indexed-layout">
        <PageIndex items={index} />
        <div className="indexed-content">
          <Section id="sectors" contained={false} className="indexed-section" title={t("labels.sectors")}>
            <ul className="sector-tiles">
              {Object.entries(ROUTED_SECTORS).map(([slug, sector]) => {
                const Icon = sectorIcons[sector];
                return (
                  <li key={slug} className="card">
                    <Icon className="card-icon" size={24} />
                    <h3>
                      <CardLink href={href(`industries.${slug}`)}>{t(`industries.${sector}.name`)}</CardLink>
                    </h3>
                    <p>{t(`industries.${sector}.summary`)}</p>
                  </li>
                );
              })}
            </ul>
          </Section>
          {UNROUTED_SECTORS.map((sector) => (
            <UnroutedSector key={sector} sector={sector} />
          ))}
        </div>
      </div>
      <CtaBand heading={t("cta.industries.heading")} body={t("cta.industries.body")} />
    </>
  );
}
