import { usePage } from "./page-context.tsx";
import { Prose, useNumbered } from "./blocks.tsx";
import { OutcomeChart } from "./visuals.tsx";

/** A figure from content as a number a chart can draw: "99,5%" and "99.5%" alike. */
const numberOf = (value: string) => Number.parseFloat(value.replace(",", "."));

/**
 * One outcome: the figure large, what it is, a small chart where it helps, then in plain words the kind of
 * project it comes from and what was measured. `sector` names the industry above the figure when outcomes of
 * several sectors sit together.
 */
export function OutcomeFigure({ base, sector }: { base: string; sector?: { name: string; href: string } }) {
  const { t, has } = usePage();
  const value = t(`${base}.value`);
  return (
    <figure className="outcome">
      {sector && (
        <p className="outcome-sector">
          <a href={sector.href}>{sector.name}</a>
        </p>
      )}
      <p className="outcome-figure">
        <span className="outcome-value">{value}</span> <span className="outcome-label">{t(`${base}.label`)}</span>
      </p>
      {has(`${base}.chart`) && (
        <OutcomeChart
          kind={t(`${base}.chart`)}
          value={numberOf(value)}
          before={t("results.before")}
          after={t("results.after")}
        />
      )}
      <figcaption>
        <span className="outcome-project">{t(`${base}.project`)}.</span> {t("results.measured")} {t(`${base}.measure`)}.
      </figcaption>
    </figure>
  );
}

/**
 * Outcome figures of a sector (`industries.<sector>.stat1..N`, all or the numbers given), with the note on
 * what they are unless the page says it once for all of them.
 */
export function SectorOutcomes({
  sector,
  only,
  note = true,
}: {
  sector: string;
  only?: readonly number[];
  note?: boolean;
}) {
  const { t } = usePage();
  const base = `industries.${sector}`;
  const all = useNumbered(base, "stat");
  const stats = only ? all.filter((i) => only.includes(i)) : all;
  return (
    <>
      <ul className={`outcome-grid${stats.length % 3 === 0 ? " cols-3" : stats.length === 2 ? " cols-2" : ""}`}>
        {stats.map((i) => (
          <li key={i}>
            <OutcomeFigure base={`${base}.stat${i}`} />
          </li>
        ))}
      </ul>
      {note && <p className="outcome-note">{t("industries.resultsNote")}</p>}
    </>
  );
}

/** How an engagement runs: the numbered stages, each with its timeframe, what it does and what it delivers. */
export function MethodSteps() {
  const { t } = usePage();
  const steps = useNumbered("method", "step");
  return (
    <ol className="method">
      {steps.map((i) => {
        const base = `method.step${i}`;
        return (
          <li key={i} className="method-step">
            <span className="method-number" aria-hidden="true">
              {String(i).padStart(2, "0")}
            </span>
            <h3>{t(`${base}.title`)}</h3>
            <p className="method-duration">
              <span className="visually-hidden">{t("method.durationLabel")}: </span>
              {t(`${base}.duration`)}
            </p>
            <p>{t(`${base}.description`)}</p>
            <h4>{t("method.deliverablesLabel")}</h4>
            <Prose text={t(`${base}.deliverables`)} className="method-deliverables" />
          </li>
        );
      })}
    </ol>
  );
}

/** The firm's independence from vendors, as what it gives the client. */
export function IndependenceBenefits() {
  const { t } = usePage();
  const benefits = useNumbered("independence", "benefit");
  return (
    <ul className="benefit-list">
      {benefits.map((i) => (
        <li key={i}>
          <h3>{t(`independence.benefit${i}.title`)}</h3>
          <p>{t(`independence.benefit${i}.description`)}</p>
        </li>
      ))}
    </ul>
  );
}
