import { usePage } from "./page-context.tsx";
import ErrorPage from "../pages/error.tsx";

export const SKELETON_CARDS = 6;
export const SKELETON_FOOTER_COLUMNS = 4;

/**
 * Markup the navigation island clones while it moves between pages (spec §2), rendered at build time in the
 * page's language so the browser needs no strings of its own and the fallbacks work offline:
 * - the loading skeleton: a header, a hero, six cards and a four-column footer;
 * - the route error fallback, 'Unexpected Application Error!', whose detail line the island fills with the
 *   status or the error message.
 * Template content is inert: it is not rendered, not in the accessibility tree, and its ids never clash.
 */
export function NavTemplates() {
  const { t } = usePage();
  const bars = (n: number) => Array.from({ length: n }, (_, i) => <span key={i} className="sk-bar" />);
  return (
    <>
      <template data-nav-template="skeleton">
        <div className="skeleton" data-skeleton="" role="status" aria-live="polite">
          <span className="visually-hidden">{t("navigation.loading")}</span>
          <div className="sk-header" aria-hidden="true">
            <div className="container sk-row">
              <span className="sk-block sk-logo" />
              {bars(4)}
            </div>
          </div>
          <div className="sk-hero" aria-hidden="true">
            <div className="container">
              <span className="sk-bar sk-eyebrow" />
              <span className="sk-bar sk-title" />
              <span className="sk-bar sk-lead" />
            </div>
          </div>
          <div className="container sk-cards" aria-hidden="true">
            {Array.from({ length: SKELETON_CARDS }, (_, i) => (
              <div key={i} className="sk-card" data-skeleton-card="">
                <span className="sk-bar sk-card-title" />
                {bars(3)}
              </div>
            ))}
          </div>
          <div className="sk-footer" aria-hidden="true">
            <div className="container sk-footer-grid">
              {Array.from({ length: SKELETON_FOOTER_COLUMNS }, (_, i) => (
                <div key={i} className="sk-column" data-skeleton-column="">
                  {bars(4)}
                </div>
              ))}
            </div>
          </div>
        </div>
      </template>
      <template data-nav-template="error">
        <ErrorPage detailSlot />
      </template>
    </>
  );
}
