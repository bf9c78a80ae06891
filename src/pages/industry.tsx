import { usePage } from "../components/page-context.tsx";
import type { HeroArt } from "../components/illustrations/index.tsx";
import { CtaBand, PageHero, Prose, Section } from "../components/blocks.tsx";
import { Challenges, Solutions, UseCases } from "../components/industry-blocks.tsx";
import { RelatedCases } from "../components/cases.tsx";
import { FurtherReading } from "../components/reading.tsx";
import { SECTOR_TOPICS } from "./sections.ts";

/**
 * A sector: its context beside its heading, the challenges as numbered columns, how the firm helps as a ruled
 * list, the use cases as accordions, its cases when it has any, and the firm's articles on its subject.
 */
export default function IndustryPage() {
  const { t, route } = usePage();
  const sector = route!.params!.sector as keyof typeof SECTOR_TOPICS;
  const base = `industries.${sector}`;
  return (
    <>
      <PageHero
        art={sector as HeroArt}
        eyebrow={t("nav.industries")}
        title={t(`${base}.name`)}
        lead={t(`${base}.summary`)}
      />
      <Section id="context" split title={t("labels.overview")}>
        <Prose text={t(`${base}.intro`)} />
      </Section>
      <Section id="challenges" tone="muted" title={t("industries.challengesHeading")}>
        <Challenges prefix={base} />
      </Section>
      <Section id="solutions" split title={t("industries.solutionsHeading")}>
        <Solutions prefix={base} />
      </Section>
      <Section id="use-cases" tone="muted" title={t("industries.useCasesHeading")}>
        <UseCases prefix={base} />
      </Section>
      <RelatedCases filter={{ sector }} />
      <Section id="reading" title={t("industries.readingHeading")}>
        <FurtherReading topics={SECTOR_TOPICS[sector]} />
      </Section>
      <CtaBand heading={t(`${base}.cta`)} body={t("cta.sector.body")} />
    </>
  );
}
