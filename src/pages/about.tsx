import { usePage } from "../components/page-context.tsx";
import { CtaBand, Monogram, PageHero, Prose, Section, useNumbered } from "../components/blocks.tsx";
import { Picture } from "../components/Picture.tsx";
import { profileName } from "../components/firm-facts.tsx";

/**
 * A person: their photo when the text gives one (`photo:`, see imageKeys in routes.ts), else their initials;
 * the companies they worked for (`previously:`) and a profile elsewhere (`profile:`, a full address) when
 * the text gives them (docs/firm-facts.md).
 */
function Person({ prefix }: { prefix: string }) {
  const { t, has, image } = usePage();
  const name = t(`${prefix}.name`);
  const photo = image(`${prefix}.photo`);
  const profile = has(`${prefix}.profile`) ? t(`${prefix}.profile`) : "";
  return (
    <li className="card person">
      {photo ? <Picture image={photo} alt={name} sizes="5rem" className="portrait" /> : <Monogram name={name} />}
      <h3>{name}</h3>
      <p className="role">{t(`${prefix}.title`)}</p>
      <p>{t(`${prefix}.bio`)}</p>
      {has(`${prefix}.previously`) && (
        <p className="previously">
          <strong>{t("leadership.previouslyLabel")}</strong> {t(`${prefix}.previously`)}
        </p>
      )}
      {profile && (
        <p className="profile">
          <a href={profile}>{t("leadership.profileLink", { name, site: profileName(profile) })}</a>
        </p>
      )}
    </li>
  );
}

/**
 * The firm: its story beside its heading, its purpose as two statements, its values numbered, then the people,
 * leaders first, each with what the text gives of them.
 */
export default function AboutPage() {
  const { t } = usePage();
  const values = useNumbered("values", "value");
  const advisors = useNumbered("advisors", "advisor");
  return (
    <>
      <PageHero art="about" title={t("about.heading")} lead={t("about.intro")} />
      <Section id="story" split title={t("labels.ourStory")}>
        <Prose text={t("about.story")} />
      </Section>
      <Section id="purpose" tone="dark" title={t("labels.purpose")}>
        <div className="statements">
          {(["mission", "vision"] as const).map((key) => (
            <div key={key}>
              <h3>{t(`${key}.title`)}</h3>
              <Prose text={t(`${key}.body`)} className="statement" />
            </div>
          ))}
        </div>
      </Section>
      <Section id="values" title={t("values.heading")}>
        <ol className="numbered-cols cols-4">
          {values.map((i) => (
            <li key={i}>
              <span className="numbered-mark" aria-hidden="true">
                {String(i).padStart(2, "0")}
              </span>
              <h3>{t(`values.value${i}.title`)}</h3>
              <p>{t(`values.value${i}.description`)}</p>
            </li>
          ))}
        </ol>
      </Section>
      <Section id="leadership" tone="muted" title={t("leadership.heading")} intro={t("leadership.intro")}>
        <ul className="card-grid cols-2">
          <Person prefix="leadership.ceo" />
          <Person prefix="leadership.cto" />
        </ul>
      </Section>
      <Section id="advisors" title={t("advisors.heading")} intro={t("advisors.intro")}>
        <ul className="card-grid cols-3">
          {advisors.map((i) => (
            <Person key={i} prefix={`advisors.advisor${i}`} />
          ))}
        </ul>
      </Section>
      <CtaBand heading={t("cta.about.heading")} body={t("cta.about.body")} />
    </>
  );
}
