/** @jsxRuntime automatic */
/** @jsxImportSource react */
/**
 * An issue of the newsletter as an e-mail, drawn with React Email's components (tables and inline styles
 * that the major mail clients display alike) and rendered with its render(): the HTML part, one column at
 * most 600 px wide that narrows on a phone, the brand's colours on white, Inter where the reader has it and
 * the system's sans-serif otherwise; and a plain-text part written from the same content. Every word comes
 * from content/<locale>/notifications.yaml (`newsletterIssue.*`). No tracking: no pixel, every link direct.
 */
import { Body } from "@react-email/body";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Img } from "@react-email/img";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { render } from "@react-email/render";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { IssueArticle, IssueContent } from "./compose.ts";

/** The site's colours (src/styles/base.css): text, secondary text, links, lines, the page around the column. */
const COLOURS = { ink: "#14202e", muted: "#4a5a6b", brand: "#0b5c8c", line: "#d5dde6", surface: "#f3f6f9" };
const FONT = '"Inter Variable", Inter, "Segoe UI", Helvetica, Arial, sans-serif';
/** The column's width and its padding: the widest an image is drawn. */
const WIDTH = 600;
const PADDING = 24;
const IMAGE_WIDTH = WIDTH - 2 * PADDING;

export interface IssueMailInput {
  issue: IssueContent;
  /** The locale's language tag (pt-BR, en): the mail's lang and how dates are written. */
  lang: string;
  /** The issue's day, YYYY-MM-DD. */
  date: string;
  /** The text of a key of the locale (newsletterIssue.*), with its {issue.*} values filled in. */
  text: (key: string, values?: Record<string, string>) => string;
  brand: string;
  /** The subscriber's own unsubscribe link; the preview has none. */
  unsubscribeUrl?: string;
}

export interface RenderedIssue {
  subject: string;
  html: string;
  text: string;
}

/** `2026-11-22` as the language writes a day: "22 de novembro de 2026", "November 22, 2026". */
export function formatDay(day: string, lang: string): string {
  const format = new Intl.DateTimeFormat(lang, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  return format.format(new Date(`${day}T00:00:00Z`));
}

const paragraph = { color: COLOURS.ink, fontFamily: FONT, fontSize: "16px", lineHeight: "24px" };

function Article({ article, input }: { article: IssueArticle; input: IssueMailInput }) {
  const { cover } = article;
  const height = cover ? Math.round((cover.height * IMAGE_WIDTH) / cover.width) : 0;
  return (
    <Section style={{ padding: `${PADDING}px 0 0` }}>
      {cover ? (
        <Img
          src={cover.url}
          width={IMAGE_WIDTH}
          height={height}
          alt={cover.alt}
          style={{ width: "100%", maxWidth: `${IMAGE_WIDTH}px`, height: "auto", borderRadius: "6px" }}
        />
      ) : null}
      <Heading as="h2" style={{ ...paragraph, fontSize: "20px", lineHeight: "28px", margin: "16px 0 4px" }}>
        <Link href={article.url} style={{ color: COLOURS.brand, textDecoration: "underline" }}>
          {article.title}
        </Link>
      </Heading>
      <Text style={{ ...paragraph, color: COLOURS.muted, fontSize: "14px", lineHeight: "20px", margin: "0 0 8px" }}>
        {input.text("published", { date: formatDay(article.date, input.lang) })}
      </Text>
      <Text style={{ ...paragraph, margin: "0" }}>{article.excerpt}</Text>
    </Section>
  );
}

function IssueMail({ input, subject, preview }: { input: IssueMailInput; subject: string; preview: string }) {
  const { issue } = input;
  return (
    <Html lang={input.lang} dir="ltr">
      <Head>
        <title>{subject}</title>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: COLOURS.surface, margin: "0", padding: "16px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", maxWidth: `${WIDTH}px`, padding: `${PADDING}px` }}>
          <Text style={{ ...paragraph, color: COLOURS.brand, fontWeight: "700", margin: "0 0 8px" }}>
            {input.brand}
          </Text>
          <Heading as="h1" style={{ ...paragraph, fontSize: "26px", lineHeight: "32px", margin: "0 0 16px" }}>
            {input.text("heading")}
          </Heading>
          {issue.intro ? <div style={paragraph} dangerouslySetInnerHTML={{ __html: issue.intro.html }} /> : null}
          <Text style={{ ...paragraph, margin: "16px 0 0" }}>{input.text("lead")}</Text>
          {issue.articles.map((article) => (
            <Article key={article.key} article={article} input={input} />
          ))}
          <Hr style={{ borderColor: COLOURS.line, margin: `${PADDING}px 0 16px` }} />
          <Text style={{ ...paragraph, color: COLOURS.muted, fontSize: "14px", lineHeight: "20px", margin: "0" }}>
            {input.text("footer")}
            {input.unsubscribeUrl ? (
              <>
                {" "}
                <Link href={input.unsubscribeUrl} style={{ color: COLOURS.brand, textDecoration: "underline" }}>
                  {input.text("unsubscribe")}
                </Link>
              </>
            ) : null}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

/** The plain-text part: the same content, each link written out. */
function plainText(input: IssueMailInput): string {
  const { issue } = input;
  const lines = [input.brand, "", input.text("heading"), ""];
  if (issue.intro) lines.push(issue.intro.markdown, "");
  lines.push(input.text("lead"), "");
  for (const article of issue.articles) {
    lines.push(article.title, input.text("published", { date: formatDay(article.date, input.lang) }));
    lines.push(article.excerpt, article.url, "");
  }
  lines.push("--", input.text("footer"));
  if (input.unsubscribeUrl) lines.push(`${input.text("unsubscribe")}: ${input.unsubscribeUrl}`);
  return `${lines.join("\n")}\n`;
}

/** The issue's subject, HTML and plain text. */
export async function renderIssue(input: IssueMailInput): Promise<RenderedIssue> {
  const subject = oneLine(input.text("subject", { date: formatDay(input.date, input.lang) }));
  const preview = oneLine(input.text("preview", { titles: input.issue.articles.map((a) => a.title).join(" · ") }));
  const html = await render(<IssueMail input={input} subject={subject} preview={preview} />);
  return { subject, html, text: plainText(input) };
}

const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
