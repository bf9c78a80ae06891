import { usePage } from "./page-context.tsx";
import { Island } from "./Island.tsx";
import Newsletter, { type NewsletterProps } from "../islands/newsletter.tsx";

/**
 * The newsletter form (the footer's; an article's end has another, `id` telling their elements apart). Without
 * JavaScript it posts to the configured endpoint, which answers with a redirect to a localised result page; the
 * island hydrates when the footer comes near the viewport.
 */
export function NewsletterSlot({ id = "newsletter" }: { id?: string } = {}) {
  const { t, site, locale } = usePage();
  const keys = [
    "emailLabel",
    "placeholder",
    "submit",
    "submitting",
    "note",
    "emptyEmail",
    "invalidEmail",
    "errorTitle",
    "failure",
    "successTitle",
    "successMessage",
  ] as const;
  const props: NewsletterProps = {
    endpoint: site.endpoints.newsletter,
    locale,
    id,
    text: Object.fromEntries(keys.map((k) => [k, t(`newsletter.${k}`)])) as NewsletterProps["text"],
  };
  return <Island name="newsletter" when="visible" component={Newsletter} props={props} />;
}
