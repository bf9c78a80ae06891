import { usePage } from "./page-context.tsx";

/**
 * The footer's newsletter form as plain HTML: with JavaScript off it posts to the configured endpoint,
 * which answers with a redirect to a localised result page.
 */
export function NewsletterSlot() {
  const { t, site, locale } = usePage();
  return (
    <form className="newsletter-form" method="post" action={site.endpoints.newsletter}>
      <input type="hidden" name="locale" value={locale} />
      <label htmlFor="newsletter-email">{t("newsletter.emailLabel")}</label>
      <div className="inline-field">
        <input id="newsletter-email" name="email" type="email" autoComplete="email" required placeholder={t("newsletter.placeholder")} />
        <button type="submit" className="btn btn-primary">
          {t("newsletter.submit")}
        </button>
      </div>
      <p className="form-hint">{t("newsletter.note")}</p>
    </form>
  );
}
