import { usePage } from "./page-context.tsx";
import { useNumbered } from "./blocks.tsx";

/**
 * A sector's text in three different modules, so that its page is not one grid of look-alike cards: the
 * challenges as numbered columns, the solutions as a list ruled in the accent, the use cases as accordions.
 * The heading level follows the page (3 on a sector's page, 4 inside a section of the industries page).
 */
type Level = 3 | 4;

/** The challenges: large numbers over their titles, three across from 48rem. */
export function Challenges({ prefix, level = 3 }: { prefix: string; level?: Level }) {
  const { t } = usePage();
  const items = useNumbered(prefix, "challenge");
  const Heading = level === 3 ? "h3" : "h4";
  return (
    <ol className="numbered-cols">
      {items.map((i) => (
        <li key={i}>
          <span className="numbered-mark" aria-hidden="true">
            {String(i).padStart(2, "0")}
          </span>
          <Heading>{t(`${prefix}.challenge${i}.title`)}</Heading>
          <p>{t(`${prefix}.challenge${i}.description`)}</p>
        </li>
      ))}
    </ol>
  );
}

/** How the firm helps: two columns of titled paragraphs, each ruled on its left in the accent. */
export function Solutions({ prefix, level = 3 }: { prefix: string; level?: Level }) {
  const { t } = usePage();
  const items = useNumbered(prefix, "solution");
  const Heading = level === 3 ? "h3" : "h4";
  return (
    <ul className="ruled-list">
      {items.map((i) => (
        <li key={i}>
          <Heading>{t(`${prefix}.solution${i}.title`)}</Heading>
          <p>{t(`${prefix}.solution${i}.description`)}</p>
        </li>
      ))}
    </ul>
  );
}

/**
 * The use cases as accordions (native <details>: no script, the keyboard opens them, and every word is in the
 * page for search engines and find-in-page): ten titles to scan instead of ten cards to scroll past. The
 * first is open, so the pattern shows itself.
 */
export function UseCases({ prefix, level = 3 }: { prefix: string; level?: Level }) {
  const { t, has } = usePage();
  const cases = useNumbered(prefix, "useCase");
  const Heading = level === 3 ? "h3" : "h4";
  return (
    <div className="accordion">
      {cases.map((i) => {
        const base = `${prefix}.useCase${i}`;
        const benefits = [1, 2, 3].filter((b) => has(`${base}.benefit${b}`));
        return (
          <details key={i} open={i === 1}>
            <summary>
              <Heading>
                <span className="accordion-number" aria-hidden="true">
                  {String(i).padStart(2, "0")}
                </span>{" "}
                {t(`${base}.title`)}
              </Heading>
            </summary>
            <p>{t(`${base}.description`)}</p>
            {benefits.length > 0 && (
              <ul className="benefits" aria-label={t("industries.benefitsHeading")}>
                {benefits.map((b) => (
                  <li key={b}>{t(`${base}.benefit${b}`)}</li>
                ))}
              </ul>
            )}
          </details>
        );
      })}
    </div>
  );
}
