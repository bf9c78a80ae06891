import { usePage } from "../components/page-context.tsx";
import type { HeroArt } from "../components/illustrations/index.tsx";
import { CtaBand, PageHero, Prose, Section } from "../components/blocks.tsx";
import { TitledItems, UseCases } from "../components/industry-blocks.tsx";
import { RelatedCases } from "../components/cases.tsx";
import { FurtherReading } from "../components/reading.tsx";
import { SECTOR_TOPICS } from "./sections.ts";

export default function IndustryPage() {
  const { t, route } = usePage();
  const sector = route!.params!.sector;
  const base = `industries.${sector}`;
  return (
    <>
      <PageHero art={sector as HeroArt} eyebrow={t("nav.industries")} title={t(`${base}.name`)} lead={t(`${base}.summary`)} />
      <Section id="context" title={t("labels.overview")}>
        <Prose text={t(`${base}.intro`)} />
      </Section>
      <Section id="challenges" tone="muted" title={t("industries.challengesHeading")}>
        <TitledItems prefix={base} item="challenge" />
      </Section>
      <Section id="solutions" title={t("industries.solutionsHeading")}>
        <TitledItems prefix={base} item="solution" />
      </Section>
      <Section id="use-cases" tone="muted" title={t("industries.useCasesHeading")}>
        <UseCases prefix={base} />
      </Section>
      <RelatedCases filter={{ sector }} />
      <Section id="reading" title={t("industries.readingHeading")}>
        <FurtherReading topics={SECTOR_TOPICS[sector as keyof typeof SECTOR_TOPICS]} />
      </Section>
      <CtaBand />
    </>
  );
}
