/**
 * Contrast as the eye meets it, measured in the page (installed with addInitScript, so it runs whatever the
 * page's CSP says): WCAG's relative luminance and contrast ratio, the colours actually behind a thing
 * (semi-transparent layers composited over what lies under them, every colour stop of a gradient), and the
 * two checks built on them: a focus indicator against each background it crosses, and text against its own.
 * axe's colour rule leaves gradients and states it does not create (focus, hover, errors) unchecked.
 */
export interface ContrastProblem {
  what: string;
  ratio: number;
  against: string;
}

export interface ContrastTools {
  /** The focus indicator of the focused element against every background under its ring (null: nothing focused). */
  focusRing(min: number): Promise<{ what: string; problems: ContrastProblem[] } | null>;
  /**
   * Every visible piece of text in the roots (a selector, or one element) and shown placeholders, against its
   * background.
   */
  text(roots: string | Element, min: number): Promise<ContrastProblem[]>;
}

declare global {
  interface Window {
    contrast: ContrastTools;
  }
}

export function installContrastTools(): void {
  type RGBA = [number, number, number, number];
  const parse = (css: string): RGBA | null => {
    if (css === "transparent" || css === "none") return null;
    const m = css.match(/rgba?\(([^)]+)\)/);
    // A colour syntax this does not read would pass unchecked: better a loud failure.
    if (!m) throw new Error(`contrast-tools: cannot read the colour ${css}`);
    // Computed colours are rgb()/rgba() with numbers; only an alpha may come as a percentage.
    const parts = m[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map((p) => (p.endsWith("%") ? parseFloat(p) / 100 : parseFloat(p)));
    return [parts[0], parts[1], parts[2], parts[3] ?? 1];
  };
  const over = (top: RGBA, bottom: RGBA): RGBA => {
    const a = top[3];
    return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
  };
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (c: RGBA) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  const ratio = (a: RGBA, b: RGBA) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const hex = (c: RGBA) =>
    `#${c
      .slice(0, 3)
      .map((v) => Math.round(v).toString(16).padStart(2, "0"))
      .join("")}`;
  const describe = (el: Element) => {
    const text = (el.getAttribute("aria-label") ?? el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
    const cls =
      typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${cls} "${text}"`;
  };

  /** The colours an element's content sits on: from the canvas down to the element, layer over layer. */
  function backgrounds(el: Element): RGBA[] {
    const chain: Element[] = [];
    for (let e: Element | null = el; e; e = e.parentElement) chain.unshift(e);
    let set: RGBA[] = [[255, 255, 255, 1]];
    for (const e of chain) {
      const style = getComputedStyle(e);
      const color = parse(style.backgroundColor);
      if (color && color[3] > 0) set = set.map((b) => over(color, b));
      const image = style.backgroundImage;
      const stops = [...image.matchAll(/rgba?\([^)]*\)/g)].map((m) => parse(m[0])!).filter((s) => s[3] > 0);
      if (/gradient/.test(image) && !/rgba?\(/.test(image))
        throw new Error(`contrast-tools: cannot read the gradient ${image}`);
      if (stops.length) set = stops.flatMap((s) => set.map((b) => over(s, b)));
      const seen = new Map(set.map((c) => [hex(c), c]));
      set = [...seen.values()];
    }
    return set;
  }

  /**
   * Whether `top` lies over the focused element's ring rather than under it: a fixed or sticky layer (the
   * header, a toast, the banner) that does not hold the focused element hides the ring at that point.
   */
  function covers(top: Element, focused: Element): boolean {
    for (let e: Element | null = top; e; e = e.parentElement) {
      if (e.contains(focused)) return false;
      if (/fixed|sticky/.test(getComputedStyle(e).position)) return true;
    }
    return false;
  }

  /**
   * What is painted once the state has settled: a focus or hover change starts CSS transitions (under
   * reduced motion every property transitions for a moment, from the old value), and their first frame
   * still shows the old colours.
   */
  async function settled(): Promise<void> {
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished.catch(() => {})),
    );
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }

  async function focusRing(min: number) {
    await settled();
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    const style = getComputedStyle(el);
    const what = describe(el);
    const width = parseFloat(style.outlineWidth) || 0;
    const color = parse(style.outlineColor);
    if (style.outlineStyle === "none" || width < 1 || !color || color[3] === 0) {
      return { what, problems: [{ what, ratio: 0, against: "no visible focus indicator (outline)" }] };
    }
    const r = el.getBoundingClientRect();
    const d = (parseFloat(style.outlineOffset) || 0) + width / 2;
    const [l, t, rr, b] = [r.left - d, r.top - d, r.right + d, r.bottom + d];
    const xs = [l, (l + rr) / 2, rr];
    const ys = [t, (t + b) / 2, b];
    const points = xs.flatMap((x) => ys.map((y) => [x, y] as const)).filter(([x, y]) => !(x === xs[1] && y === ys[1]));
    const behind = new Map<string, RGBA>();
    for (const [x, y] of points) {
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const under = document.elementsFromPoint(x, y).find((e) => e !== el && !el.contains(e));
      if (!under || covers(under, el)) continue;
      for (const c of backgrounds(under)) behind.set(hex(c), c);
    }
    const problems: ContrastProblem[] = [];
    for (const [name, bg] of behind) {
      const value = ratio(over(color, bg), bg);
      if (value < min)
        problems.push({ what, ratio: Math.round(value * 100) / 100, against: `outline ${hex(color)} on ${name}` });
    }
    return { what, problems };
  }

  function visible(el: Element): boolean {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) return false;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    for (let e: Element | null = el; e; e = e.parentElement)
      if (getComputedStyle(e).clipPath.startsWith("inset(50%")) return false;
    return true;
  }

  async function text(roots: string | Element, min: number): Promise<ContrastProblem[]> {
    await settled();
    const problems: ContrastProblem[] = [];
    const check = (el: Element, colorCss: string, what: string) => {
      const color = parse(colorCss);
      if (!color) return;
      for (const bg of backgrounds(el)) {
        const value = ratio(over(color, bg), bg);
        if (value < min)
          problems.push({
            what,
            ratio: Math.round(value * 100) / 100,
            against: `text ${hex(over(color, bg))} on ${hex(bg)}`,
          });
      }
    };
    for (const root of typeof roots === "string" ? document.querySelectorAll(roots) : [roots]) {
      for (const el of [root, ...root.querySelectorAll("*")]) {
        if (el.closest("template, script, style, svg")) continue;
        const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
        if (own && visible(el)) check(el, getComputedStyle(el).color, describe(el));
        if (
          (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) &&
          el.placeholder &&
          !el.value &&
          visible(el)
        ) {
          check(el, getComputedStyle(el, "::placeholder").color, `placeholder of ${describe(el)}`);
        }
      }
    }
    return problems;
  }

  window.contrast = { focusRing, text };
}
