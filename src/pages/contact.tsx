import { Building, CalendarCheck, Clock, Mail, MapPin, Phone } from "../components/icons.tsx";
import { usePage } from "../components/page-context.tsx";
import { PageHero, useNumbered } from "../components/blocks.tsx";
import { ContactFormSlot } from "../components/ContactFormSlot.tsx";
import { PrivacyNote } from "../components/firm-facts.tsx";

/**
 * The form beside the firm's details. The e-mail, city and response time are always there; the phone, the
 * street address, the legal name with its CNPJ and the booking link appear once content/site.yaml gives
 * them (docs/firm-facts.md), and never as an example in the meantime.
 */
export default function ContactPage() {
  const { t, site } = usePage();
  const steps = useNumbered("contact.next", "step");
  return (
    <>
      <PageHero art="contact" title={t("contact.heading")} lead={t("contact.intro")}>
        {site.bookingUrl && (
          <a className="btn btn-primary" href={site.bookingUrl}>
            <CalendarCheck size={18} />
            {t("contact.booking")}
          </a>
        )}
      </PageHero>
      <div className="container contact-layout">
        <section className="card contact-form-card" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title">{t("contact.formHeading")}</h2>
          <ContactFormSlot />
          <PrivacyNote />
        </section>
        <aside className="contact-aside" aria-labelledby="contact-details-title">
          <h2 id="contact-details-title">{t("contact.detailsHeading")}</h2>
          <dl className="details">
            <div>
              <dt>
                <Mail size={18} /> {t("contact.emailLabel")}
              </dt>
              <dd>
                <a href={`mailto:${site.email}`}>{site.email}</a>
              </dd>
            </div>
            {site.phone && (
              <div>
                <dt>
                  <Phone size={18} /> {t("contact.phoneLabel")}
                </dt>
                <dd>
                  <a href={`tel:${site.phone.replace(/[^\d+]/g, "")}`}>{site.phone}</a>
                </dd>
              </div>
            )}
            <div>
              <dt>
                <MapPin size={18} /> {t("contact.addressLabel")}
              </dt>
              <dd>
                <address>
                  {site.streetAddress && (
                    <>
                      {site.streetAddress}
                      <br />
                    </>
                  )}
                  {t("contact.address")}
                  {site.postalCode && (
                    <>
                      <br />
                      {t("contact.postalCodeLabel")} {site.postalCode}
                    </>
                  )}
                </address>
              </dd>
            </div>
            {site.legalName && (
              <div>
                <dt>
                  <Building size={18} /> {t("contact.companyLabel")}
                </dt>
                <dd>
                  {site.legalName}
                  {site.taxId && (
                    <>
                      <br />
                      {t("contact.taxIdLabel")} {site.taxId}
                    </>
                  )}
                </dd>
              </div>
            )}
            <div>
              <dt>
                <Clock size={18} /> {t("labels.responseTime")}
              </dt>
              <dd>{t("contact.responseTime")}</dd>
            </div>
          </dl>
          <h2>{t("contact.next.heading")}</h2>
          <ol className="steps">
            {steps.map((i) => (
              <li key={i}>{t(`contact.next.step${i}`)}</li>
            ))}
          </ol>
        </aside>
      </div>
    </>
  );
}
