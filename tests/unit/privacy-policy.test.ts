import { describe, expect, it } from "vitest";
import { submissionSettings } from "../../src/api/submission-settings.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { loadLocaleContent } from "../../src/generator/content.ts";
import { ROOT } from "../helpers.ts";

/**
 * The privacy policy says what the code does: the retention period of site.yaml, who is told of each lead
 * (and that newsletter signups are not, unless notifications.newsletter says so), and where a person
 * exercises their rights. Changing one of those settings without the text fails here.
 */
const site = loadSiteConfig(ROOT);
const text = (locale: string) => loadLocaleContent(ROOT, locale, site).dictionary;
const notifications = site.notifications as { newsletter?: boolean };

describe("the privacy policy and the settings it describes", () => {
  it.each([
    [
      "pt",
      "dias",
      "Inscrições na newsletter não geram esse aviso.",
      "JSON",
      "Quando você cancela a inscrição, apagamos na hora o seu endereço da lista, junto com qualquer edição que " +
        "ainda estivesse para ser enviada a você, e não guardamos nenhum registro dele.",
      "Se o seu provedor de e-mail recusar definitivamente as nossas mensagens para esse endereço, registramos " +
        "também quando isso aconteceu e a resposta dele, e deixamos de enviar para esse endereço.",
    ],
    [
      "en",
      "days",
      "Newsletter signups do not trigger it.",
      "JSON",
      "When you unsubscribe, we delete your address from the list at once, together with any issue still waiting " +
        "to be sent to you, and keep no record of it.",
      "If your email provider permanently refuses our messages to that address, we also record when it happened " +
        "and its reply, and stop sending to it.",
    ],
  ])(
    "%s: retention, notifications and the rights' address match site.yaml",
    (locale, days, noNewsletterNotice, format, keptOnLeaving, keptOnBounce) => {
      const policy = text(locale);
      const retentionDays = submissionSettings(site, {}).retentionDays;
      expect(retentionDays).toBeGreaterThan(0);
      expect(policy.get("privacy.section4.body")).toContain(`(${retentionDays} ${days})`);
      expect(notifications.newsletter).toBe(false);
      expect(policy.get("privacy.section5.body")).toContain(noNewsletterNotice);
      expect(policy.get("privacy.section5.body")).toMatch(/e-?mail/i);
      expect(policy.get("privacy.section8.body")).toContain(String(site.privacyEmail));
      expect(policy.get("privacy.section8.body")).toContain(format);
      // What is kept of an address that leaves the newsletter: nothing (store.unsubscribe; unsubscribe.test.ts).
      expect(policy.get("privacy.section4.body")).toContain(keptOnLeaving);
      // What is kept of an address the mail server refuses for good: its bounce (IssueStore.markRefused).
      expect(policy.get("privacy.section2.body")).toContain(keptOnBounce);
      // What it no longer claims: the IP address is in the access log, and the period is not "a few minutes".
      expect(policy.get("privacy.section2.body")).not.toMatch(/alguns minutos|few minutes/);
    },
  );
});
