import { useRef, useState } from "react";
import { islandMount } from "./runtime/island.ts";
import { firstTouchTracker, LOOKS_LIKE_EMAIL, submitJson } from "./runtime/form-submit.ts";
import { HiddenFormFields } from "./runtime/form-fields.tsx";
import { toast } from "./runtime/toast.ts";

const FIELDS = ["firstName", "lastName", "email", "company", "message"] as const;
type Field = (typeof FIELDS)[number];

export interface ContactFormProps {
  endpoint: string;
  locale: string;
  text: {
    labels: Record<Field, string>;
    optional: string;
    submit: string;
    submitting: string;
    summaryHeading: string;
    successTitle: string;
    successMessage: string;
    errorTitle: string;
    failure: string;
    errors: {
      firstName: string;
      lastName: string;
      email: string;
      emailInvalid: string;
      message: string;
      tooLong: string;
    };
  };
}

const LIMITS: Record<Field, number> = { firstName: 100, lastName: 100, email: 254, company: 200, message: 5000 };
const AUTOCOMPLETE: Record<Field, string> = {
  firstName: "given-name",
  lastName: "family-name",
  email: "email",
  company: "organization",
  message: "off",
};

function validate(
  values: Record<Field, string>,
  t: ContactFormProps["text"]["errors"],
): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) {
    const v = values[field].trim();
    if (v.length > LIMITS[field]) errors[field] = t.tooLong;
    else if (field === "email") {
      if (!v) errors.email = t.email;
      else if (!LOOKS_LIKE_EMAIL.test(v)) errors.email = t.emailInvalid;
    } else if (field !== "company" && !v) errors[field] = t[field];
  }
  return errors;
}

/**
 * The contact form (spec §3/§4/§8). Without JavaScript it is a plain form posting to the endpoint, which
 * validates it and answers with a localised page; `noValidate` from the first byte keeps the browser's own
 * bubble, in the browser's language, out of the way. Hydrated, it checks the fields first: each message
 * beside its field, once, and a summary that links to the fields by their labels. It sends JSON and reports
 * the result through a toast kept clear of the button. Nothing typed is cleared unless the message was sent.
 */
export default function ContactForm({ endpoint, locale, text }: ContactFormProps) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const touched = useRef(firstTouchTracker());

  async function onSubmit(event: { preventDefault(): void }) {
    event.preventDefault();
    const form = formRef.current;
    if (busy || !form) return;
    const data = new FormData(form);
    const values = Object.fromEntries(FIELDS.map((f) => [f, String(data.get(f) ?? "")])) as Record<Field, string>;
    const found = validate(values, text.errors);
    setErrors(found);
    if (Object.keys(found).length) {
      requestAnimationFrame(() => summaryRef.current?.focus());
      return;
    }
    setBusy(true);
    const result = await submitJson(endpoint, {
      ...values,
      locale,
      website: String(data.get("website") ?? ""),
      startedAt: touched.current.value(),
    });
    setBusy(false);
    // The submit button, the form's last element.
    const origin = form.lastElementChild;
    if (result.ok) {
      form.reset();
      toast({ type: "success", title: text.successTitle, description: text.successMessage, system: "alert", origin });
    } else if (result.errors && Object.keys(result.errors).length) {
      // The endpoint's field errors go beside their fields, like ours: not a second time in a toast.
      setErrors(result.errors as Partial<Record<Field, string>>);
      requestAnimationFrame(() => summaryRef.current?.focus());
    } else
      toast({
        type: "error",
        title: text.errorTitle,
        description: result.message ?? text.failure,
        system: "alert",
        origin,
      });
  }

  const listed = FIELDS.filter((f) => errors[f]);
  const field = (name: Field, multiline = false) => {
    const id = `contact-${name}`;
    const error = errors[name];
    const common = {
      id,
      name,
      required: name !== "company",
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? `${id}-error` : undefined,
      onInput: () => error && setErrors((e) => ({ ...e, [name]: undefined })),
    };
    return (
      <div className="field">
        <label htmlFor={id}>
          {text.labels[name]}
          {name === "company" && <span className="optional"> ({text.optional})</span>}
        </label>
        {multiline ? (
          <textarea {...common} rows={6} />
        ) : (
          <input {...common} type={name === "email" ? "email" : "text"} autoComplete={AUTOCOMPLETE[name]} />
        )}
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <form
      ref={formRef}
      className="contact-form"
      method="post"
      action={endpoint}
      noValidate
      onSubmit={onSubmit}
      onFocusCapture={() => touched.current.mark()}
      aria-busy={busy}
    >
      <HiddenFormFields locale={locale} />
      {listed.length > 0 && (
        <div
          className="error-summary"
          role="alert"
          tabIndex={-1}
          ref={summaryRef}
          aria-labelledby="contact-summary-title"
        >
          <h3 id="contact-summary-title">{text.summaryHeading}</h3>
          <ul>
            {listed.map((f) => (
              <li key={f}>
                <a href={`#contact-${f}`}>{text.labels[f]}</a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="field-row">
        {field("firstName")}
        {field("lastName")}
      </div>
      {field("email")}
      {field("company")}
      {field("message", true)}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? text.submitting : text.submit}
      </button>
    </form>
  );
}

export const mount = islandMount(ContactForm);
