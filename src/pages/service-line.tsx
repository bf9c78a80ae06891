import { usePage } from "../components/page-context.tsx";
import { ArrowLink, CtaBand, PageHero, Prose, Section, useNumbered } from "../components/blocks.tsx";
import { OutcomeFigure } from "../components/proof.tsx";
import { SERVICE_OUTCOMES, SERVICE_TOPICS, type ServiceLine } from "./sections.ts";
import { FurtherReading } from "../components/reading.tsx";
import { RelatedCases } from "../components/cases.tsx";

function Service({ prefix, index }: { prefix: string; index: number }) {
  const { t } = usePage();
  const deliverables = useNumbered(prefix, "deliverable");
  return (
    <li className="card service">
      <p className="step" aria-hidden="true">
        {String(index).padStart(2, "0")}
      </p>
      <h3>{t(`${prefix}.title`)}</h3>
      <p>{t(`${prefix}.description`)}</p>
      <h4>{t("labels.deliverables")}</h4>
      <ul className="check-list">
        {deliverables.map((i) => (
          <li key={i}>{t(`${prefix}.deliverable${i}`)}</li>
        ))}
      </ul>
    </li>
  );
}

/**
 * What a line of service leaves the client with: its outcomes as numbered statements, then, for a line whose
 * projects the typical results measure, those figures with what was measured and a link to all of them.
 */
function ServiceOutcomes({ line }: { line: ServiceLine }) {
  const { t, href } = usePage();
  const items = t(`services.${line}.outcomes`)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
  const figures = SERVICE_OUTCOMES[line] ?? [];
  return (
    <>
      <ol className="outcome-points">
        {items.map((item, i) => (
          <li key={i}>
            <span className="outcome-point-number" aria-hidden="true">
              {String(i + 1).padStart(2, "0")}
            </span>
            <p>{item}</p>
          </li>
        ))}
      </ol>
      {figures.length > 0 && (
        <>
          <h3 className="outcome-figures-heading">{t("industries.resultsHeading")}</h3>
          <ul className="outcome-grid cols-3">
            {figures.map(([sector, i]) => (
              <li key={`${sector}${i}`}>
                <OutcomeFigure
                  base={`industries.${sector}.stat${i}`}
                  sector={{ name: t(`industries.${sector}.name`), href: `${href("industries")}#${sector}` }}
                />
              </li>
            ))}
          </ul>
          <p className="outcome-note">{t("industries.resultsNote")}</p>
          <ArrowLink href={href("results")}>{t("results.seeAll")}</ArrowLink>
        </>
      )}
    </>
  );
}

/**
 * A line of service: its overview beside its heading, the four services with what each delivers, what the line
 * leaves the client with (and, where they measure its projects, the typical results), its cases when it has
 * any, and the firm's articles on its subjects.
 */
export default function ServiceLinePage() {
  const { t, route } = usePage();
  const line = route!.params!.line as ServiceLine;
  const base = `services.${line}`;
  const services = useNumbered(base, "service");
  return (
    <>
      <PageHero art={line} eyebrow={t(`${base}.badge`)} title={t(`${base}.name`)} lead={t(`${base}.tagline`)} />
      <Section id="overview" split title={t("labels.overview")}>
        <Prose text={t(`${base}.intro`)} />
      </Section>
      <Section id="services-list" tone="muted" title={t("labels.whatWeDeliver")}>
        <ul className="card-grid cols-2">
          {services.map((i) => (
            <Service key={i} index={i} prefix={`${base}.service${i}`} />
          ))}
        </ul>
      </Section>
      <Section id="outcomes" title={t("labels.outcomes")}>
        <ServiceOutcomes line={line} />
      </Section>
      <RelatedCases filter={{ service: line }} tone="muted" />
      <Section id="reading" title={t("labels.reading")}>
        <FurtherReading topics={SERVICE_TOPICS[line]} />
      </Section>
      <CtaBand heading={t(`cta.${line}.heading`)} body={t(`cta.${line}.body`)} />
    </>
  );
}
