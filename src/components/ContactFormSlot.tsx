import { usePage } from "./page-context.tsx";

/** The contact form as plain HTML: it posts to the configured endpoint with JavaScript off. */
export function ContactFormSlot() {
  const { t, site, locale } = usePage();
  const field = (name: string, type: string, autoComplete: string, required = true) => (
    <div className="field">
      <label htmlFor={`contact-${name}`}>
        {t(`contactForm.${name}`)}
        {!required && <span className="optional"> {t("contactForm.optional")}</span>}
      </label>
      <input id={`contact-${name}`} name={name} type={type} autoComplete={autoComplete} required={required} />
    </div>
  );
  return (
    <form className="contact-form" method="post" action={site.endpoints.contact}>
      <input type="hidden" name="locale" value={locale} />
      <div className="field-row">
        {field("firstName", "text", "given-name")}
        {field("lastName", "text", "family-name")}
      </div>
      {field("email", "email", "email")}
      {field("company", "text", "organization")}
      <div className="field">
        <label htmlFor="contact-message">{t("contactForm.message")}</label>
        <textarea id="contact-message" name="message" rows={6} required />
      </div>
      <button type="submit" className="btn btn-primary">
        {t("contactForm.submit")}
      </button>
    </form>
  );
}
