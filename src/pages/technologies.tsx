import { usePage } from "../components/page-context.tsx";
import { CtaBand, PageHero, Prose, Section } from "../components/blocks.tsx";
import { technologyIcons } from "../components/icons.tsx";

export default function TechnologiesPage() {
  const { t } = usePage();
  return (
    <>
      <PageHero art="technologies" title={t("technologies.heading")} lead={t("technologies.intro")} />
      <Section id="agnostic" tone="muted" title={t("labels.platformAgnostic")}>
        <Prose text={t("technologies.agnostic")} />
      </Section>
      <Section id="categories" title={t("labels.categories")}>
        <ul className="card-grid cols-2">
          {Object.entries(technologyIcons).map(([key, Icon]) => (
            <li key={key} className="card">
              <Icon className="card-icon" size={28} />
              <h3>{t(`technologies.${key}.name`)}</h3>
              <p>{t(`technologies.${key}.description`)}</p>
              <p className="tools">
                <strong>{t("technologies.toolsLabel")}</strong> {t(`technologies.${key}.tools`)}
              </p>
            </li>
          ))}
        </ul>
      </Section>
      <CtaBand />
    </>
  );
}
