import { Mail, MapPin, Clock, Phone } from "../components/icons.tsx";
import { usePage } from "../components/page-context.tsx";
import { PageHero, useNumbered } from "../components/blocks.tsx";
import { ContactFormSlot } from "../components/ContactFormSlot.tsx";

/**
 * The form beside the firm's details: e-mail, phone, address and response time, the facts of site.yaml
 * (content/site.yaml holds no street address, so the address is the city, state and country).
 */
export default function ContactPage() {
  const { t, site } = usePage();
  const steps = useNumbered("contact.next", "step");
  return (
    <>
      <PageHero motif="contact" title={t("contact.heading")} lead={t("contact.intro")} />
      <div className="container contact-layout">
        <section className="card contact-form-card" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title">{t("contact.formHeading")}</h2>
          <ContactFormSlot />
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
            <div>
              <dt>
                <Phone size={18} /> {t("contact.phoneLabel")}
              </dt>
              <dd>
                <a href={`tel:${site.phone.replace(/[^\d+]/g, "")}`}>{site.phone}</a>
              </dd>
            </div>
            <div>
              <dt>
                <MapPin size={18} /> {t("contact.addressLabel")}
              </dt>
              <dd>
                <address>{t("contact.address")}</address>
              </dd>
            </div>
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
