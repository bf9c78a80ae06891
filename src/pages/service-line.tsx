import { usePage } from "../components/page-context.tsx";
import { CtaBand, PageHero, Prose, Section, useNumbered } from "../components/blocks.tsx";
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

export default function ServiceLinePage() {
  const { t, route } = usePage();
  const line = route!.params!.line;
  const base = `services.${line}`;
  const services = useNumbered(base, "service");
  return (
    <>
      <PageHero motif="services" eyebrow={t(`${base}.badge`)} title={t(`${base}.name`)} lead={t(`${base}.tagline`)} />
      <Section id="overview" title={t("labels.overview")}>
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
        <Prose text={t(`${base}.outcomes`)} />
      </Section>
      <RelatedCases filter={{ service: line }} tone="muted" />
      <CtaBand />
    </>
  );
}
