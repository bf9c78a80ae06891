import { usePage } from "./page-context.tsx";
import { Island } from "./Island.tsx";
import ContactForm, { type ContactFormProps } from "../islands/contact-form.tsx";

/** The contact form: a plain form posting to the endpoint without JavaScript, hydrated when the browser is idle. */
export function ContactFormSlot() {
  const { t, site, locale } = usePage();
  const pick = <K extends string>(prefix: string, keys: readonly K[]) =>
    Object.fromEntries(keys.map((k) => [k, t(`${prefix}.${k}`)])) as Record<K, string>;
  const props: ContactFormProps = {
    endpoint: site.endpoints.contact,
    locale,
    text: {
      labels: pick("contactForm", ["firstName", "lastName", "email", "company", "message"] as const),
      ...pick("contactForm", [
        "optional",
        "submit",
        "submitting",
        "summaryHeading",
        "successTitle",
        "successMessage",
        "errorTitle",
        "failure",
      ] as const),
      errors: pick("contactForm.errors", [
        "firstName",
        "lastName",
        "email",
        "emailInvalid",
        "message",
        "tooLong",
      ] as const),
    },
  };
  return <Island name="contact-form" when="idle" component={ContactForm} props={props} />;
}
