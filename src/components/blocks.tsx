import type { ReactNode } from "react";
import { ArrowRight } from "./icons.tsx";
import { usePage } from "./page-context.tsx";
import { Art, QuietVisual, type HeroArt, type QuietArt } from "./illustrations/index.tsx";

/** The top of every page: the one h1, an optional eyebrow and lead paragraph, actions, and its illustration. */
export function PageHero({
  eyebrow,
  title,
  lead,
  art,
  children,
}: {
  eyebrow?: string;
  title: ReactNode;
  lead?: string;
  art?: HeroArt;
  children?: ReactNode;
}) {
  return (
    <div className="page-hero">
      <div className="container hero-inner">
        <div className="hero-text">
          {eyebrow && <p className="eyebrow">{eyebrow}</p>}
          <h1>{title}</h1>
          {lead && <p className="lead">{lead}</p>}
          {children && <div className="actions">{children}</div>}
        </div>
        {art && <Art name={art} />}
      </div>
    </div>
  );
}

/**
 * The top of a page a visitor lands on when something ended or went wrong (not found, an error, a form's
 * result): on the light page, its quiet visual beside the one h1, the message and the ways on.
 */
export function QuietPage({
  visual,
  eyebrow,
  title,
  lead,
  note,
  children,
}: {
  visual: QuietArt;
  eyebrow?: string;
  title: ReactNode;
  lead?: string;
  note?: string;
  children?: ReactNode;
}) {
  return (
    <div className="quiet-page">
      <div className="container quiet-inner">
        <QuietVisual name={visual} />
        <div>
          {eyebrow && <p className="eyebrow">{eyebrow}</p>}
          <h1>{title}</h1>
          {lead && <p className="lead">{lead}</p>}
          {note && <p className="lead">{note}</p>}
          {children && <div className="actions">{children}</div>}
        </div>
      </div>
    </div>
  );
}

/**
 * A titled band of the page. The id links the heading to the section for assistive technology. `split`: an
 * editorial split, the heading and intro in a sticky left column beside the content from 64rem.
 */
export function Section({
  id,
  title,
  intro,
  tone,
  split = false,
  contained = true,
  className,
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  tone?: "muted" | "dark";
  split?: boolean;
  contained?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const classes = ["section", tone && `section-${tone}`, split && "section-split", className].filter(Boolean).join(" ");
  const inner = (
    <>
      <div className={`section-head${intro ? " has-intro" : ""}`}>
        <h2 id={`${id}-title`}>{title}</h2>
        {intro && <p className="section-intro">{intro}</p>}
      </div>
      {split ? <div className="section-body">{children}</div> : children}
    </>
  );
  // `contained={false}`: a section inside a column of its own (the industries page's indexed layout).
  return (
    <section id={id} className={classes} aria-labelledby={`${id}-title`}>
      {contained ? <div className="container">{inner}</div> : inner}
    </section>
  );
}

/**
 * A long page's index: its sections (and their parts) as links. On a phone a list at the top; from 64rem a
 * column beside the text that stays in view while the page scrolls (layout.css).
 */
export function PageIndex({
  items,
}: {
  items: { href: string; label: string; children?: { href: string; label: string }[] }[];
}) {
  const { t } = usePage();
  return (
    <nav className="page-index" aria-labelledby="page-index-title">
      <p id="page-index-title" className="page-index-title">
        {t("a11y.pageIndex")}
      </p>
      <ol>
        {items.map((item) => (
          <li key={item.href}>
            <a href={item.href}>{item.label}</a>
            {item.children && (
              <ol>
                {item.children.map((child) => (
                  <li key={child.href}>
                    <a href={child.href}>{child.label}</a>
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * Text from a `body` key: paragraphs split on blank lines; lines starting with "- " become a list
 * (content/README.md). It renders text only, so content can never inject markup.
 */
export function Prose({ text, className }: { text: string; className?: string }) {
  const blocks = text
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  return (
    <div className={className ?? "prose"}>
      {blocks.map((block, i) => {
        const lines = block.split("\n");
        if (lines.every((l) => l.trim().startsWith("- "))) {
          return (
            <ul key={i}>
              {lines.map((l, j) => (
                <li key={j}>{withMailLinks(l.trim().slice(2))}</li>
              ))}
            </ul>
          );
        }
        return <p key={i}>{withMailLinks(lines.join(" "))}</p>;
      })}
    </div>
  );
}

const MAIL_ADDRESS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/** A text with each e-mail address in it as a link that writes to it, as a reader of a policy expects. */
function withMailLinks(text: string): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(MAIL_ADDRESS)) {
    // An address ends before a full stop that closes the sentence.
    const address = match[0].replace(/\.+$/, "");
    parts.push(
      text.slice(last, match.index),
      <a key={match.index} href={`mailto:${address}`}>
        {address}
      </a>,
    );
    last = match.index + address.length;
  }
  if (!parts.length) return text;
  parts.push(text.slice(last));
  return parts;
}

/** 1..N for a numbered key family (`service1..4`). */
export function useNumbered(prefix: string, item: string): number[] {
  const { count } = usePage();
  return Array.from({ length: count(prefix, item) }, (_, i) => i + 1);
}

export function ArrowLink({ href, children, className }: { href: string; children: ReactNode; className?: string }) {
  return (
    <a className={className ?? "arrow-link"} href={href}>
      {children}
      <ArrowRight size={16} />
    </a>
  );
}

/**
 * A card's title as the link to what the card presents: the link reads as its destination ("AI Advisory"),
 * never as a label pasted before it, and the whole card answers the pointer (components.css).
 */
export function CardLink({ href, children }: { href: string; children: ReactNode }) {
  // The arrow stays with the title's last word: a line break never leaves it alone on a line.
  const words = typeof children === "string" ? children.split(" ") : null;
  const last = words ? words.pop() : children;
  return (
    <a className="card-link" href={href}>
      {words && words.length > 0 && `${words.join(" ")} `}
      <span className="card-link-end">
        {last}
        <ArrowRight size={18} />
      </span>
    </a>
  );
}

/**
 * The closing call to action, in the words of its page: `heading` and `body` say what to talk about after
 * reading it (the sector, the line of service, the article's subject); the button always reads as the
 * navigation's contact link. `children` may add a second action before it.
 */
export function CtaBand({ heading, body, children }: { heading: string; body: string; children?: ReactNode }) {
  const { t, href } = usePage();
  return (
    <section className="cta-band" aria-labelledby="cta-title">
      <div className="container cta-inner">
        <div>
          <h2 id="cta-title">{heading}</h2>
          <p>{body}</p>
        </div>
        <div className="cta-actions">
          {children}
          <a className="btn btn-primary" href={href("contact")}>
            {t("cta.button")}
            <ArrowRight size={18} />
          </a>
        </div>
      </div>
    </section>
  );
}

/** Initials for people shown without photos. */
export function Monogram({ name }: { name: string }) {
  const initials = name
    .split(/\s+/)
    .filter((w) => /^\p{Lu}/u.test(w))
    .map((w) => w.charAt(0))
    .join("");
  const short = initials.length > 2 ? initials.charAt(0) + initials.charAt(initials.length - 1) : initials;
  return (
    <span className="monogram" aria-hidden="true">
      {short}
    </span>
  );
}
