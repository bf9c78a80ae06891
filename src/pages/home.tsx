import { ArrowRight } from "../components/icons.tsx";
import { usePage } from "../components/page-context.tsx";
import { PostCard } from "../components/PostCard.tsx";
import { ServiceLineHead } from "../components/ServiceLineHead.tsx";
import { ArrowLink, CardLink, CtaBand, Section, useNumbered } from "../components/blocks.tsx";
import { sectorIcons, technologyIcons } from "../components/icons.tsx";
import { ALL_SECTORS, ROUTED_SECTORS, SERVICE_LINES } from "./sections.ts";

const sectorSlug: Record<string, string> = Object.fromEntries(Object.entries(ROUTED_SECTORS).map(([slug, key]) => [key, slug]));

export default function HomePage() {
  const { t, href, collection } = usePage();
  const proof = useNumbered("home.proof", "item");
  return (
    <>
      <div className="hero">
        <div className="container">
          <p className="eyebrow">{t("hero.eyebrow")}</p>
          <h1>
            {t("hero.title")} <span className="highlight">{t("hero.titleHighlight")}</span> {t("hero.titleEnd")}
          </h1>
          <p className="lead">{t("hero.subtitle")}</p>
          <div className="actions">
            <a className="btn btn-primary" href={href("contact")}>
              {t("hero.cta")}
              <ArrowRight size={18} />
            </a>
            <a className="btn btn-ghost" href={href("services")}>
              {t("hero.learnMore")}
            </a>
          </div>
          <ul className="proof-list">
            {proof.map((i) => (
              <li key={i}>{t(`home.proof.item${i}`)}</li>
            ))}
          </ul>
        </div>
      </div>

      <Section id="services" title={t("home.services.heading")} intro={t("home.services.intro")}>
        <ul className="card-grid cols-3">
          {SERVICE_LINES.map((line) => (
            <li key={line} className="card">
              <ServiceLineHead line={line} />
              <p>{t(`services.${line}.summary`)}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="technologies" tone="muted" title={t("home.technologies.heading")} intro={t("home.technologies.intro")}>
        <ul className="chip-grid">
          {Object.entries(technologyIcons).map(([key, Icon]) => (
            <li key={key} className="chip">
              <Icon size={20} />
              <span>{t(`technologies.${key}.name`)}</span>
            </li>
          ))}
        </ul>
        <ArrowLink href={href("technologies")}>{t("labels.seeTechnologies")}</ArrowLink>
      </Section>

      <Section id="industries" title={t("home.industries.heading")} intro={t("home.industries.intro")}>
        <ul className="card-grid cols-4">
          {ALL_SECTORS.map((sector) => {
            const Icon = sectorIcons[sector];
            const slug = sectorSlug[sector];
            // Unrouted sectors link to their section of the overview.
            const target = slug ? href(`industries.${slug}`) : `${href("industries")}#${sector}`;
            return (
              <li key={sector} className="card card-compact">
                <Icon className="card-icon" size={24} />
                <h3>
                  <CardLink href={target}>{t(`industries.${sector}.name`)}</CardLink>
                </h3>
              </li>
            );
          })}
        </ul>
        <ArrowLink href={href("industries")}>{t("labels.seeIndustries")}</ArrowLink>
      </Section>

      <Section id="about-teaser" tone="dark" title={t("home.about.heading")}>
        <p className="section-intro">{t("home.about.body")}</p>
        <ArrowLink href={href("about")}>{t("home.about.cta")}</ArrowLink>
      </Section>

      <Section id="insights" title={t("insights.heading")} intro={t("insights.intro")}>
        <ul className="card-grid cols-3">
          {collection("insights")
            .slice(0, 3)
            .map((entry) => (
              <PostCard key={entry.key} entry={entry} />
            ))}
        </ul>
        <ArrowLink href={href("insights")}>{t("insights.readMore")}</ArrowLink>
      </Section>
      <CtaBand />
    </>
  );
}
