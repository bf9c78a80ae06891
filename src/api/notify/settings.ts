/**
 * Which notifiers run, from the environment (the secrets, and what container platforms and serverless hosts
 * pass) over the non-secret defaults of site.yaml's `notifications:` block. No password or token is ever read
 * from a file of the repository: SMTP_URL and NOTIFY_WEBHOOK_URL exist only in the environment.
 *
 *   SMTP_URL            smtp://user:password@host:587 (STARTTLS when the server offers it), smtps://...:465 for TLS
 *   NOTIFY_EMAIL_TO     one or more addresses, comma separated (else notifications.to)
 *   NOTIFY_WEBHOOK_URL  an http(s) address that receives each lead as JSON (Slack, Teams, a CRM)
 *   DKIM_PRIVATE_KEY    a PEM private key (line breaks may be written \n): every e-mail is DKIM-signed with it
 *   DKIM_SELECTOR       the selector of its public key in DNS (<selector>._domainkey.<domain>)
 *   DKIM_DOMAIN         the signing domain (d=), when it is not the domain of notifications.from
 *
 * A setting that cannot work stops the server at start (NotifyConfigError, which the CLI shows as a
 * catalogued error) rather than losing leads quietly later.
 */
import { redactDatabaseUrl } from "../pg-url.ts";
import { isValidEmail } from "../validate.ts";

export type Environment = Readonly<Record<string, string | undefined>>;

/** site.yaml's `notifications:` block, every field optional. */
export interface NotificationsConfig {
  /** The sender of every e-mail: an address, or `Name <address>`. */
  from?: string;
  /** The firm's recipients, comma separated, when NOTIFY_EMAIL_TO is not set. */
  to?: string;
  /** Whether each newsletter signup notifies the firm too (contact messages always do). */
  newsletter?: boolean;
  /** The language of the firm's e-mails (a locale code of site.yaml); the default locale when absent. */
  locale?: string;
  /** How long one try of one delivery may take before it counts as failed. */
  timeoutSeconds?: number;
}

export interface NotifySettings {
  email?: { smtpUrl: string; from: string; to: string[] };
  webhook?: { url: string };
  /** Whether newsletter signups are sent to the firm. */
  newsletter: boolean;
  locale: string | undefined;
  timeoutMs: number;
  /** The SMTP server for e-mails to visitors (double opt-in), even when the firm gets no e-mail. */
  smtpUrl?: string;
  from?: string;
  /** DKIM signing of every e-mail, when DKIM_PRIVATE_KEY and DKIM_SELECTOR are set. */
  dkim?: DkimSettings;
}

/** What signs every e-mail with DKIM (RFC 6376), in nodemailer's names. */
export interface DkimSettings {
  /** The signing domain (d=). */
  domainName: string;
  /** The selector (s=): the public key is the TXT record <selector>._domainkey.<domain>. */
  keySelector: string;
  /** PEM. */
  privateKey: string;
}

/** A setting that cannot work; `variable` names it (errors.ts maps it to a catalogued error). */
export class NotifyConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
    /** The site.yaml setting that needs the variable, when turning it off is the other way out. */
    readonly setting?: string,
  ) {
    super(message);
    this.name = "NotifyConfigError";
  }
}

const DEFAULT_TIMEOUT_SECONDS = 10;

/** An address alone, from `Name <address>` or a bare address. */
export function addressOf(mailbox: string): string {
  const angle = /<([^<>]+)>\s*$/.exec(mailbox);
  return (angle ? angle[1] : mailbox).trim();
}

function recipients(value: string, variable: string): string[] {
  const list = value
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  for (const address of list) {
    if (!isValidEmail(address.normalize("NFC")))
      throw new NotifyConfigError(variable, `${variable} holds "${address}", which is not an e-mail address.`);
  }
  return list;
}

export function notifySettings(config: NotificationsConfig | undefined, env: Environment): NotifySettings {
  const c = config ?? {};
  const timeoutSeconds = Number(c.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    throw new NotifyConfigError(
      "notifications.timeoutSeconds",
      `notifications.timeoutSeconds in site.yaml is ${String(c.timeoutSeconds)}, not a positive number of seconds.`,
    );
  }
  const settings: NotifySettings = {
    newsletter: c.newsletter === true,
    locale: c.locale,
    timeoutMs: timeoutSeconds * 1000,
  };

  const smtpUrl = env.SMTP_URL?.trim();
  if (smtpUrl) {
    let url: URL | undefined;
    try {
      url = new URL(smtpUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "smtp:" && url.protocol !== "smtps:") || !url.hostname) {
      throw new NotifyConfigError(
        "SMTP_URL",
        `SMTP_URL is ${redactDatabaseUrl(smtpUrl)}: it must be smtp://user:password@host:port, or smtps:// for TLS.`,
      );
    }
    const from = c.from?.trim();
    if (!from || !isValidEmail(addressOf(from).normalize("NFC"))) {
      throw new NotifyConfigError(
        "notifications.from",
        `SMTP_URL is set, but notifications.from in site.yaml ` +
          `(${from ? `"${from}"` : "missing"}) is no sender address.`,
      );
    }
    settings.smtpUrl = smtpUrl;
    settings.from = from;
    const to = recipients(
      env.NOTIFY_EMAIL_TO?.trim() || c.to || "",
      env.NOTIFY_EMAIL_TO?.trim() ? "NOTIFY_EMAIL_TO" : "notifications.to",
    );
    if (to.length > 0) settings.email = { smtpUrl, from, to };
  } else if (env.NOTIFY_EMAIL_TO?.trim()) {
    throw new NotifyConfigError(
      "SMTP_URL",
      "NOTIFY_EMAIL_TO is set, but SMTP_URL is not: no e-mail can be sent without a server.",
    );
  }

  const dkim = dkimSettings(env, settings.from);
  if (dkim) settings.dkim = dkim;

  const webhook = env.NOTIFY_WEBHOOK_URL?.trim();
  if (webhook) {
    let url: URL | undefined;
    try {
      url = new URL(webhook);
    } catch {
      url = undefined;
    }
    // The address itself is often the secret (a Slack or Teams webhook): never shown.
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
      throw new NotifyConfigError(
        "NOTIFY_WEBHOOK_URL",
        "NOTIFY_WEBHOOK_URL is not an http:// or https:// address (its value is not shown: it may hold a token).",
      );
    }
    settings.webhook = { url: webhook };
  }
  return settings;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const SELECTOR = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * DKIM from the environment: nothing when neither the key nor the selector is set; one without the other,
 * a key that is no PEM private key, or no domain to sign for, cannot work. The key is never shown.
 */
function dkimSettings(env: Environment, from: string | undefined): DkimSettings | undefined {
  const key = env.DKIM_PRIVATE_KEY?.trim();
  const keySelector = env.DKIM_SELECTOR?.trim();
  if (!key && !keySelector) return undefined;
  if (!key || !keySelector) {
    const [missing, given] = key ? ["DKIM_SELECTOR", "DKIM_PRIVATE_KEY"] : ["DKIM_PRIVATE_KEY", "DKIM_SELECTOR"];
    throw new NotifyConfigError(missing, `${given} is set, but ${missing} is not: DKIM signing needs both.`);
  }
  // A key pasted into one line of a platform's settings keeps its line breaks as \n.
  const privateKey = key.replace(/\\n/g, "\n").replace(/\r\n/g, "\n");
  if (!/^-----BEGIN (?:RSA |EC )?PRIVATE KEY-----\n[\s\S]+\n-----END (?:RSA |EC )?PRIVATE KEY-----$/.test(privateKey))
    throw new NotifyConfigError(
      "DKIM_PRIVATE_KEY",
      "DKIM_PRIVATE_KEY is not a PEM private key (-----BEGIN PRIVATE KEY----- ...); its value is not shown.",
    );
  if (!SELECTOR.test(keySelector))
    throw new NotifyConfigError("DKIM_SELECTOR", `DKIM_SELECTOR is "${keySelector}", which is no DNS label.`);
  const domainName = env.DKIM_DOMAIN?.trim() || (from ? addressOf(from).split("@").pop() : undefined);
  if (!domainName || !DOMAIN.test(domainName))
    throw new NotifyConfigError(
      "DKIM_DOMAIN",
      domainName
        ? `DKIM_DOMAIN is "${domainName}", which is no domain name.`
        : "DKIM_PRIVATE_KEY is set, but there is no domain to sign for: set DKIM_DOMAIN, or notifications.from.",
    );
  return { domainName: domainName.toLowerCase(), keySelector, privateKey };
}

/** The deliverers queued with each submission of a form: what is configured, newsletter signups only if asked. */
export function outboxKinds(settings: NotifySettings, form: "newsletter" | "contact"): string[] {
  if (form === "newsletter" && !settings.newsletter) return [];
  return [...(settings.email ? ["email"] : []), ...(settings.webhook ? ["webhook"] : [])];
}
