import type { ReactNode } from "react";
import { usePage } from "./page-context.tsx";

/**
 * A text with one `{name}` in it, the placeholder replaced by a link: the sentence stays whole in content, in
 * each language's word order, and the link is markup the text itself never holds.
 */
export function withLink(text: string, name: string, link: ReactNode): ReactNode {
  const at = text.indexOf(`{${name}}`);
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      {link}
      {text.slice(at + name.length + 2)}
    </>
  );
}

/** Under the contact form: what the data is used for, linked to the privacy policy (the newsletter has its own). */
export function PrivacyNote() {
  const { t, href } = usePage();
  return (
    <p className="form-hint privacy-note">
      {withLink(t("contact.privacyNote"), "policy", <a href={href("privacy-policy")}>{t("nav.privacy")}</a>)}
    </p>
  );
}

/** The name a profile's link reads as: its site's, without "www." ("linkedin.com"). */
export function profileName(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}
