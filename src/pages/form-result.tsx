import { usePage } from "../components/page-context.tsx";
import { PageHero } from "../components/blocks.tsx";

/**
 * What a visitor without JavaScript sees after posting a form: the endpoint answers 303 See Other to one
 * of these pages. Going back with the browser keeps what they typed.
 */
export default function FormResultPage({ result, title, message, eyebrow }: { result: string; title: string; message: string; eyebrow?: string }) {
  const { t, href } = usePage();
  return (
    <PageHero eyebrow={t(eyebrow ?? (result === "error" ? "contactForm.errorTitle" : "result.successHeading"))} title={t(title)} lead={t(message)}>
      {result === "error" && <p className="lead">{t("result.back")}</p>}
      <a className="btn btn-primary" href={href("home")}>
        {t("result.home")}
      </a>
      <a className="btn btn-ghost" href={href("contact")}>
        {t("nav.contact")}
      </a>
    </PageHero>
  );
}
