import { usePage } from "../components/page-context.tsx";
import { QuietPage } from "../components/blocks.tsx";
import type { QuietArt } from "../components/illustrations/index.tsx";

/** Each result's quiet visual: sent, waiting for the subscriber's confirmation, or not done. */
const VISUAL: Record<string, QuietArt> = {
  "newsletter-pending": "waiting",
  error: "failed",
  "newsletter-confirm-failed": "failed",
  "newsletter-unsubscribe-failed": "failed",
};

/**
 * What a visitor without JavaScript sees after posting a form: the endpoint answers 303 See Other to one
 * of these pages. Going back with the browser keeps what they typed.
 */
export default function FormResultPage({
  result,
  title,
  message,
  eyebrow,
}: {
  result: string;
  title: string;
  message: string;
  eyebrow?: string;
}) {
  const { t, href } = usePage();
  return (
    <QuietPage
      visual={VISUAL[result] ?? "sent"}
      eyebrow={t(eyebrow ?? (result === "error" ? "contactForm.errorTitle" : "result.successHeading"))}
      title={t(title)}
      lead={t(message)}
      note={result === "error" ? t("result.back") : undefined}
    >
      <a className="btn btn-primary" href={href("home")}>
        {t("result.home")}
      </a>
      <a className="btn btn-ghost" href={href("contact")}>
        {t("nav.contact")}
      </a>
    </QuietPage>
  );
}
