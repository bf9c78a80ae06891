import { useRef, useState } from "react";
import { islandMount } from "./runtime/island.ts";
import { firstTouchTracker, LOOKS_LIKE_EMAIL, submitJson } from "./runtime/form-submit.ts";
import { HiddenFormFields } from "./runtime/form-fields.tsx";
import { toast } from "./runtime/toast.ts";

export interface NewsletterProps {
  endpoint: string;
  locale: string;
  /** What the form's element ids start with: a page may show the form twice (an article's end, the footer). */
  id: string;
  text: {
    emailLabel: string;
    placeholder: string;
    submit: string;
    submitting: string;
    note: string;
    emptyEmail: string;
    invalidEmail: string;
    errorTitle: string;
    failure: string;
    successTitle: string;
    successMessage: string;
  };
}

type Status = "idle" | "submitting";

/**
 * The footer newsletter form (spec §4/§5/§8). Server-rendered as a plain form that posts without
 * JavaScript; hydrated, it validates, sends JSON, and reports through toasts. On failure the address stays.
 * Each message is shown once, in the spec's toast (title and message), placed clear of the form; the field
 * is marked invalid for assistive technology and described by a hidden copy of the message.
 * `noValidate` from the first byte: the browser's own bubble would speak the browser's language, not the
 * page's, and the endpoint validates a form posted before this script runs (its localised error page).
 */
export default function Newsletter({ endpoint, locale, text, id }: NewsletterProps) {
  const [status, setStatus] = useState<Status>("idle");
  const [error, setError] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const touched = useRef(firstTouchTracker());

  async function onSubmit(event: { preventDefault(): void; currentTarget: HTMLFormElement }) {
    event.preventDefault();
    if (status === "submitting") return;
    const form = event.currentTarget;
    const email = (input.current?.value ?? "").trim();
    const problem = !email ? text.emptyEmail : !LOOKS_LIKE_EMAIL.test(email) ? text.invalidEmail : "";
    setError(problem);
    if (problem) {
      toast({ type: "error", title: text.errorTitle, description: problem, origin: form });
      input.current?.focus();
      return;
    }
    setStatus("submitting");
    const honeypot = (form.elements.namedItem("website") as HTMLInputElement | null)?.value ?? "";
    const result = await submitJson(endpoint, { email, locale, website: honeypot, startedAt: touched.current.value() });
    setStatus("idle");
    if (result.ok) {
      form.reset();
      // The endpoint's own words when it has them: under double opt-in it asks to check the inbox.
      toast({
        type: "success",
        title: result.title ?? text.successTitle,
        description: result.message ?? text.successMessage,
        origin: form,
      });
    } else {
      const fieldError = result.errors?.email;
      if (fieldError) setError(fieldError);
      toast({ type: "error", title: text.errorTitle, description: fieldError ?? text.failure, origin: form });
    }
  }

  const busy = status === "submitting";
  return (
    <form
      className="newsletter-form"
      method="post"
      action={endpoint}
      noValidate
      onSubmit={onSubmit}
      onFocusCapture={() => touched.current.mark()}
      aria-busy={busy}
    >
      <HiddenFormFields locale={locale} />
      <label htmlFor={`${id}-email`}>{text.emailLabel}</label>
      <div className="inline-field">
        <input
          ref={input}
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="email"
          required
          placeholder={text.placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onInput={() => error && setError("")}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? text.submitting : text.submit}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="visually-hidden">
          {error}
        </p>
      )}
      <p className="form-hint">{text.note}</p>
    </form>
  );
}

export const mount = islandMount(Newsletter);
