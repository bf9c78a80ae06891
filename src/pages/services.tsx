import { usePage } from "../components/page-context.tsx";
import { CtaBand, PageHero, Section, useNumbered } from "../components/blocks.tsx";
import { IndependenceBenefits, MethodSteps } from "../components/proof.tsx";
import { ServiceLineHead } from "../components/ServiceLineHead.tsx";
import { SERVICE_LINES } from "./sections.ts";

function LineCard({ line }: { line: string }) {
  const { t } = usePage();
  const services = useNumbered(`services.${line}`, "service");
  return (
    <li className="card">
      <ServiceLineHead line={line} />
      <p className="tagline">{t(`services.${line}.tagline`)}</p>
      <p>{t(`services.${line}.summary`)}</p>
      <ul className="check-list">
        {services.map((i) => (
          <li key={i}>{t(`services.${line}.service${i}.title`)}</li>
        ))}
      </ul>
    </li>
  );
}

export default function ServicesPage() {
  const { t } = usePage();
  return (
    <>
      <PageHero art="services" eyebrow={t("nav.services")} title={t("services.overview.heading")} lead={t("services.overview.intro")} />
      <Section id="lines" title={t("labels.serviceLines")}>
        <ul className="card-grid cols-3">
          {SERVICE_LINES.map((line) => (
            <LineCard key={line} line={line} />
          ))}
        </ul>
      </Section>
      {/* Independence as the buyer's benefit, then how an engagement runs: the lines above are not restated. */}
      <Section id="independence" tone="dark" title={t("independence.heading")} intro={t("independence.intro")}>
        <IndependenceBenefits />
      </Section>
      <Section id="method" title={t("method.heading")} intro={t("method.intro")}>
        <MethodSteps />
      </Section>
      <CtaBand />
    </>
  );
}
