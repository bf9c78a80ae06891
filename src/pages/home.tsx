import { ArrowRight } from "../components/icons.tsx";
import { usePage } from "../components/page-context.tsx";
import { PostGrid } from "../components/PostCard.tsx";
import { ServiceLineHead } from "../components/ServiceLineHead.tsx";
import { ArrowLink, CardLink, CtaBand, Prose, Section } from "../components/blocks.tsx";
import { OutcomeFigure } from "../components/proof.tsx";
import { PullQuote } from "../components/reading.tsx";
import { Art } from "../components/illustrations/index.tsx";
import { sectorIcons } from "../components/icons.tsx";
import { ALL_SECTORS, ROUTED_SECTORS, SERVICE_LINES } from "./sections.ts";

/** The outcomes the home page shows: two of manufacturing's figures and two of healthcare's (spec §9). */
const HOME_OUTCOMES = [
  ["manufacturing", 1],
  ["manufacturing", 3],
  ["healthcare", 1],
  ["healthcare", 3],
] as const;

const sectorSlug: Record<string, string> = Object.fromEntries(
  Object.entries(ROUTED_SECTORS).map(([slug, key]) => [key, slug]),
);

export default function HomePage() {
  const { t, href, collection, site } = usePage();
  const articles = collection("insights");
  const latest = articles.slice(0, 3);
  // The newest article that offers a sentence to quote: the firm's own words between its figures and its sectors.
  const quoted = articles.find((entry) => entry.data.pullQuote);
  return (
    <>
      <div className="hero">
        <div className="container hero-inner">
          <div className="hero-text">
            {/* The city never splits across lines ("São / Paulo" on a phone). */}
            <p className="eyebrow">{t("hero.eyebrow").replace(site.city, site.city.replace(/ /g, "\u00a0"))}</p>
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
          </div>
          <Art name="home" />
        </div>
      </div>

      <Section id="results" title={t("results.heading")} intro={t("results.intro")}>
        <ul className="outcome-grid">
          {HOME_OUTCOMES.map(([sector, i]) => (
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
      </Section>

      <Section id="services" tone="muted" title={t("home.services.heading")} intro={t("home.services.intro")}>
        <ul className="card-grid cols-3">
          {SERVICE_LINES.map((line) => (
            <li key={line} className="card">
              <ServiceLineHead line={line} />
              <p>{t(`services.${line}.summary`)}</p>
            </li>
          ))}
        </ul>
        <ArrowLink href={href("technologies")}>{t("labels.seeTechnologies")}</ArrowLink>
      </Section>

      {quoted && (
        <section className="quote-band" aria-label={t("home.quoteLabel")}>
          <div className="container">
            <PullQuote entry={quoted} />
          </div>
        </section>
      )}

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

      <Section id="about-teaser" tone="dark" split title={t("home.about.heading")}>
        <Prose text={t("home.about.body")} className="about-body" />
        <ArrowLink href={href("about")}>{t("home.about.cta")}</ArrowLink>
      </Section>

      <Section id="insights" title={t("insights.heading")} intro={t("insights.intro")}>
        <PostGrid entries={latest} />
        <ArrowLink href={href("insights")}>{t("insights.readMore")}</ArrowLink>
      </Section>
      <CtaBand heading={t("cta.home.heading")} body={t("cta.home.body")} />
    </>
  );
}
