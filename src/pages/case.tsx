import { usePage } from "../components/page-context.tsx";
import type { HeroArt } from "../components/illustrations/index.tsx";
import { CtaBand, PageHero, Section } from "../components/blocks.tsx";
import { caseResults } from "../components/cases.tsx";
import { ROUTED_SECTORS } from "./sections.ts";

const sectorSlug: Record<string, string> = Object.fromEntries(
  Object.entries(ROUTED_SECTORS).map(([slug, key]) => [key, slug]),
);

/**
 * A case (content/<locale>/cases/*.md): the client as the firm may describe it, the sector and service line
 * (each linked to its page), the team and duration, the challenge, what was done, and the results measured,
 * each with what was measured; then the body, if the file has one, under a heading of its own.
 */
export default function CasePage() {
  const { t, entry, href } = usePage();
  const data = entry!.data;
  const sector = String(data.sector);
  const service = String(data.service);
  // A sector without a page of its own (manufacturing, healthcare) has its section of the industries page.
  const sectorHref = sectorSlug[sector] ? href(`industries.${sectorSlug[sector]}`) : `${href("industries")}#${sector}`;
  const results = caseResults(entry!);
  const facts = [
    ["client", String(data.client)],
    ["team", String(data.team)],
    ["duration", String(data.duration)],
  ] as const;
  return (
    <>
      <PageHero
        art={sector as HeroArt}
        eyebrow={t(`industries.${sector}.name`)}
        title={String(data.title)}
        lead={String(data.description)}
      />
      <div className="container case-facts">
        <dl>
          {facts.map(([key, value]) => (
            <div key={key}>
              <dt>{t(`results.case.${key}`)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
          <div>
            <dt>{t("results.case.sector")}</dt>
            <dd>
              <a href={sectorHref}>{t(`industries.${sector}.name`)}</a>
            </dd>
          </div>
          <div>
            <dt>{t("results.case.service")}</dt>
            <dd>
              <a href={href(`services.${service}`)}>{t(`services.${service}.name`)}</a>
            </dd>
          </div>
        </dl>
      </div>
      <section className="section" aria-label={`${t("results.case.challenge")}, ${t("results.case.approach")}`}>
        <div className="container editorial-split">
          <div>
            <h2>{t("results.case.challenge")}</h2>
            <p>{String(data.challenge)}</p>
          </div>
          <div>
            <h2>{t("results.case.approach")}</h2>
            <p>{String(data.approach)}</p>
          </div>
        </div>
      </section>
      <Section id="measured" tone="dark" title={t("results.case.results")}>
        <ul className="figure-band">
          {results.map((r) => (
            <li key={r.value + r.label}>
              <p className="figure-value">{r.value}</p>
              <p className="figure-label">{r.label}</p>
              <p className="figure-context">{r.context}</p>
            </li>
          ))}
        </ul>
      </Section>
      {entry!.html && (
        <Section id="story" split title={t("results.case.story")}>
          <div className="prose article-prose case-story" dangerouslySetInnerHTML={{ __html: entry!.html }} />
        </Section>
      )}
      <CtaBand heading={t("cta.case.heading")} body={t("cta.case.body")} />
    </>
  );
}
