import { CalendarCheck, ExternalLink, Mail, MapPin, Phone } from "./icons.tsx";
import { profileName } from "./firm-facts.tsx";
import { usePage } from "./page-context.tsx";
import { SERVICE_LINES } from "../pages/sections.ts";
import { NewsletterSlot } from "./NewsletterSlot.tsx";

/**
 * Four columns (brand and address, services, company, newsletter) and a legal bar. The phone, the street
 * address, the booking link, the profiles and the CNPJ show once content/site.yaml gives them.
 */
export function Footer() {
  const { t, href, site } = usePage();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section className="footer-col" aria-labelledby="footer-brand">
          <h2 id="footer-brand" className="footer-brand">
            {site.brand}
          </h2>
          <p>{t("footer.tagline")}</p>
          <address>
            <p>
              <MapPin size={16} />{" "}
              {site.streetAddress ? `${site.streetAddress}, ${t("footer.address")}` : t("footer.address")}
            </p>
            <p>
              <Mail size={16} /> <a href={`mailto:${site.email}`}>{site.email}</a>
            </p>
            {site.phone && (
              <p>
                <Phone size={16} /> <a href={`tel:${site.phone.replace(/[^\d+]/g, "")}`}>{site.phone}</a>
              </p>
            )}
            {site.bookingUrl && (
              <p>
                <CalendarCheck size={16} /> <a href={site.bookingUrl}>{t("contact.booking")}</a>
              </p>
            )}
            {(site.sameAs ?? []).map((url) => (
              <p key={url}>
                <ExternalLink size={16} /> <a href={url}>{profileName(url)}</a>
              </p>
            ))}
          </address>
        </section>
        <nav className="footer-col" aria-labelledby="footer-services">
          <h2 id="footer-services">{t("footer.servicesHeading")}</h2>
          <ul>
            <li>
              <a href={href("services")}>{t("footer.allServices")}</a>
            </li>
            {SERVICE_LINES.map((line) => (
              <li key={line}>
                <a href={href(`services.${line}`)}>{t(`nav.${line}`)}</a>
              </li>
            ))}
          </ul>
        </nav>
        <nav className="footer-col" aria-labelledby="footer-company">
          <h2 id="footer-company">{t("footer.companyHeading")}</h2>
          <ul>
            <li>
              <a href={href("about")}>{t("nav.about")}</a>
            </li>
            <li>
              <a href={href("results")}>{t("breadcrumbs.results")}</a>
            </li>
            <li>
              <a href={href("technologies")}>{t("nav.technologies")}</a>
            </li>
            <li>
              <a href={href("industries")}>{t("nav.industries")}</a>
            </li>
            <li>
              <a href={href("insights")}>{t("nav.insights")}</a>
            </li>
            <li>
              <a href={href("contact")}>{t("nav.contact")}</a>
            </li>
          </ul>
        </nav>
        <section className="footer-col" aria-labelledby="footer-newsletter">
          <h2 id="footer-newsletter">{t("newsletter.heading")}</h2>
          <p>{t("newsletter.description")}</p>
          <NewsletterSlot />
        </section>
      </div>
      <div className="container footer-legal">
        <p>
          {t("footer.copyright", { year, brand: site.brand })}
          {site.legalName && (
            <>
              {" "}
              <span className="footer-company">
                {site.legalName}
                {/* A no-break space: "CNPJ" never ends a line without its number. */}
                {site.taxId && ` · ${t("contact.taxIdLabel")}\u00a0${site.taxId}`}
              </span>
            </>
          )}
        </p>
        <nav aria-label={t("a11y.legalNav")}>
          <ul>
            <li>
              <a href={href("privacy-policy")}>{t("nav.privacy")}</a>
            </li>
            <li>
              <a href={href("terms-of-service")}>{t("nav.terms")}</a>
            </li>
            <li>
              <a href={href("cookie-policy")}>{t("nav.cookies")}</a>
            </li>
            <li>
              <a href={`${href("cookie-policy")}#cookie-settings`} data-cookie-settings="">
                {t("nav.cookieSettings")}
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
