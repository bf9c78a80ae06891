import { usePage } from "./page-context.tsx";
import { useNumbered } from "./blocks.tsx";

/**
 * Challenges, solutions and use cases of a sector share one card layout; the heading level follows the page.
 * Threes sit in rows of three, anything else in pairs, so that no row is left with a lone card.
 */
export function TitledItems({ prefix, item, level = 3 }: { prefix: string; item: string; level?: 3 | 4 }) {
  const { t } = usePage();
  const items = useNumbered(prefix, item);
  const Heading = level === 3 ? "h3" : "h4";
  return (
    <ul className={`card-grid ${items.length % 3 === 0 ? "cols-3" : "cols-2"}`}>
      {items.map((i) => (
        <li key={i} className="card">
          <Heading>{t(`${prefix}.${item}${i}.title`)}</Heading>
          <p>{t(`${prefix}.${item}${i}.description`)}</p>
        </li>
      ))}
    </ul>
  );
}

export function UseCases({ prefix, level = 3 }: { prefix: string; level?: 3 | 4 }) {
  const { t, has } = usePage();
  const cases = useNumbered(prefix, "useCase");
  const Heading = level === 3 ? "h3" : "h4";
  return (
    <ol className="use-cases">
      {cases.map((i) => {
        const base = `${prefix}.useCase${i}`;
        const benefits = [1, 2, 3].filter((b) => has(`${base}.benefit${b}`));
        return (
          <li key={i} className="use-case">
            <Heading>{t(`${base}.title`)}</Heading>
            <p>{t(`${base}.description`)}</p>
            {benefits.length > 0 && (
              <ul className="benefits" aria-label={t("industries.benefitsHeading")}>
                {benefits.map((b) => (
                  <li key={b}>{t(`${base}.benefit${b}`)}</li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ol>
  );
}
