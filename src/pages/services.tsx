import { usePage } from "../components/page-context.tsx";
import { CtaBand, PageHero, Section, useNumbered } from "../components/blocks.tsx";
import { MethodSteps } from "../components/proof.tsx";
import { ServiceLineHead } from "../components/ServiceLineHead.tsx";
import { SERVICE_LINES } from "./sections.ts";

/** A service line as a row: its name, promise and summary on the left, its four services on the right. */
function LineRow({ line }: { line: string }) {
  const { t } = usePage();
  const services = useNumbered(`services.${line}`, "service");
  return (
    <li className="line-row">
      <div className="line-row-head">
        <ServiceLineHead line={line} />
        <p className="tagline">{t(`services.${line}.tagline`)}</p>
        <p>{t(`services.${line}.summary`)}</p>
      </div>
      <ol className="line-row-services">
        {services.map((i) => (
          <li key={i}>
            <h4>{t(`services.${line}.service${i}.title`)}</h4>
            <p>{t(`services.${line}.service${i}.description`)}</p>
          </li>
        ))}
      </ol>
    </li>
  );
}

/**
 * The three lines of service as editorial rows, then how an engagement runs. Independence from vendors is told
 * once, on the technologies page, where it is the subject.
 */
export default function ServicesPage() {
  const { t } = usePage();
  return (
    <>
      <PageHero
        art="services"
        eyebrow={t("nav.services")}
        title={t("services.overview.heading")}
        lead={t("services.overview.intro")}
      />
      <Section id="lines" title={t("labels.serviceLines")}>
        <ol className="line-rows">
          {SERVICE_LINES.map((line) => (
            <LineRow key={line} line={line} />
          ))}
        </ol>
      </Section>
      <Section id="method" tone="muted" title={t("method.heading")} intro={t("method.intro")}>
        <MethodSteps />
      </Section>
      <CtaBand heading={t("cta.services.heading")} body={t("cta.services.body")} />
    </>
  );
}
