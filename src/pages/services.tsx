import { usePage } from "../components/page-context.tsx";
import { CardLink, CtaBand, PageHero, Prose, Section, useNumbered } from "../components/blocks.tsx";
import { serviceLineIcons } from "../components/icons.tsx";
import { SERVICE_LINES } from "./sections.ts";

function LineCard({ line }: { line: string }) {
  const { t, href } = usePage();
  const services = useNumbered(`services.${line}`, "service");
  const Icon = serviceLineIcons[line];
  return (
    <li className="card">
      <div className="card-head">
        <Icon className="card-icon" size={28} />
        <p className="badge">{t(`services.${line}.badge`)}</p>
      </div>
      <h3>
        <CardLink href={href(`services.${line}`)}>{t(`services.${line}.name`)}</CardLink>
      </h3>
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
      <PageHero title={t("services.overview.heading")} lead={t("services.overview.intro")} />
      <Section id="lines" title={t("labels.serviceLines")}>
        <ul className="card-grid cols-3">
          {SERVICE_LINES.map((line) => (
            <LineCard key={line} line={line} />
          ))}
        </ul>
      </Section>
      <Section id="approach" tone="muted" title={t("labels.approach")}>
        <Prose text={t("services.overview.approach")} />
      </Section>
      <CtaBand />
    </>
  );
}
