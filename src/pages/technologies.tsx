import { usePage } from "../components/page-context.tsx";
import { CtaBand, PageHero, Prose, Section } from "../components/blocks.tsx";
import { IndependenceBenefits } from "../components/proof.tsx";
import { technologyIcons } from "../components/icons.tsx";

/**
 * The firm's independence from vendors, told here once (what it gives the client, how it chooses), then the
 * ten technology categories as a two-column reference list, each with representative products.
 */
export default function TechnologiesPage() {
  const { t } = usePage();
  return (
    <>
      <PageHero art="technologies" title={t("technologies.heading")} lead={t("technologies.intro")} />
      <Section id="independence" tone="muted" split title={t("independence.heading")} intro={t("independence.intro")}>
        <Prose text={t("technologies.agnostic")} />
        <IndependenceBenefits />
      </Section>
      <Section id="categories" title={t("labels.categories")}>
        <ul className="tech-list">
          {Object.entries(technologyIcons).map(([key, Icon]) => (
            <li key={key}>
              <Icon className="card-icon" size={24} />
              <div>
                <h3>{t(`technologies.${key}.name`)}</h3>
                <p>{t(`technologies.${key}.description`)}</p>
                <p className="tools">
                  <strong>{t("technologies.toolsLabel")}</strong> {t(`technologies.${key}.tools`)}
                </p>
              </div>
            </li>
          ))}
        </ul>
      </Section>
      <CtaBand heading={t("cta.technologies.heading")} body={t("cta.technologies.body")} />
    </>
  );
}
