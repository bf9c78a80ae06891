/**
 * The site's graphics, drawn at build time as inline SVG in the brand's colours (no photographs, nothing
 * fetched): the heroes' vector field, the outcome charts, the section divider. All are decorative
 * (aria-hidden): the text beside them says everything they show. Colours come from CSS classes
 * (visuals.css), so the SVG markup stays small and the palette lives in one place.
 */

/** Points of a smooth path through the field, left to right, converging on the arrow's tail. */
const STREAMS = [
  [20, 70, 150, 110, 260, 170],
  [10, 170, 140, 185, 260, 200],
  [30, 290, 150, 260, 260, 230],
  [60, 370, 170, 320, 270, 250],
];

/**
 * The field's points, 12 by 10, 40 apart: one path of zero-length strokes, each drawn by its round cap as a
 * dot (visuals.css), a tenth of the markup of a circle element each, on every page that carries the visual.
 */
const DOT_GRID = Array.from({ length: 10 }, (_, row) => `M20 ${30 + row * 40}h0${"m40 0h0".repeat(11)}`).join("");

/**
 * The heroes' visual: a field of data points whose streams converge into one vector (the firm's name is
 * the Portuguese for it) rising over a small chart. `compact` is the inner pages' lighter version.
 */
export function HeroVisual({ compact = false }: { compact?: boolean }) {
  return (
    <svg className={`hero-visual${compact ? " hero-visual-compact" : ""}`} viewBox="0 0 480 420" aria-hidden="true" focusable="false">
      <path className="hv-grid" d={DOT_GRID} />
      <g className="hv-streams">
        {STREAMS.map(([x1, y1, cx, cy, x2, y2], i) => (
          <path key={i} d={`M${x1} ${y1}Q${cx} ${cy} ${x2} ${y2}`} />
        ))}
      </g>
      <g className="hv-nodes">
        {STREAMS.map(([x1, y1], i) => (
          <circle key={i} cx={x1} cy={y1} r="5" />
        ))}
      </g>
      {!compact && (
        <g className="hv-panel">
          <rect x="250" y="250" width="200" height="130" rx="14" />
          {[34, 52, 46, 70, 88].map((h, i) => (
            <rect key={i} className="hv-bar" x={272 + i * 34} y={360 - h} width="20" height={h} rx="3" />
          ))}
        </g>
      )}
      <path className="hv-vector" d="M262 212L420 84" />
      <path className="hv-head" d="M420 84l-34 6 22 22z" />
      <circle className="hv-origin" cx="262" cy="212" r="9" />
    </svg>
  );
}

/** The inner pages' visuals: one motif per kind of page, in the heroes' language (points, streams, the vector). */
export type Motif = "services" | "technologies" | "industries" | "about" | "insights" | "contact" | "results";

/** The vector's arrow, rising from (x1, y1) to (x2, y2), with its head and its origin. */
function Vector({ x1, y1, x2, y2 }: { x1: number; y1: number; x2: number; y2: number }) {
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const at = (back: number, side: number) => `${Math.round(x2 - back * Math.cos(angle) - side * Math.sin(angle))} ${Math.round(y2 - back * Math.sin(angle) + side * Math.cos(angle))}`;
  return (
    <>
      <path className="hv-vector" d={`M${x1} ${y1}L${at(14, 0)}`} />
      <path className="hv-head" d={`M${x2} ${y2}L${at(30, 13)}L${at(30, -13)}z`} />
      <circle className="hv-origin" cx={x1} cy={y1} r="9" />
    </>
  );
}

/** The point of a circle of radius r around (cx, cy), at a fraction of a turn from the top. */
const around = (cx: number, cy: number, r: number, turn: number): [number, number] => [Math.round(cx + r * Math.sin(turn * 2 * Math.PI)), Math.round(cy - r * Math.cos(turn * 2 * Math.PI))];

function MotifShapes({ motif }: { motif: Motif }) {
  switch (motif) {
    // Strategy, build and run: three layers the vector rises through.
    case "services":
      return (
        <>
          {[0, 1, 2].map((i) => (
            <rect key={i} className={i === 2 ? "hv-tile hv-tile-on" : "hv-tile"} x={70 + i * 45} y={290 - i * 90} width="230" height="62" rx="14" />
          ))}
          <path className="hv-streams" d="M185 290V262M230 200V172" />
          <Vector x1={150} y1={360} x2={430} y2={70} />
        </>
      );
    // Independent of vendors: one hub, many platforms around it.
    case "technologies": {
      const spokes = [0, 1, 2, 3, 4, 5].map((i) => around(240, 215, 150, i / 6 + 1 / 12));
      return (
        <>
          <path className="hv-streams" d={spokes.map(([x, y]) => `M240 215L${x} ${y}`).join("")} />
          <circle className="hv-tile" cx="240" cy="215" r="62" />
          <g className="hv-nodes">
            {spokes.map(([x, y]) => (
              <circle key={`${x}-${y}`} cx={x} cy={y} r="14" />
            ))}
          </g>
          <Vector x1={240} y1={215} x2={420} y2={70} />
        </>
      );
    }
    // Sectors: a field of tiles, a few of them lit.
    case "industries":
      return (
        <>
          {[0, 1, 2, 3].flatMap((col) =>
            [0, 1, 2].map((row) => <rect key={`${col}-${row}`} className={(col + row * 2) % 5 === 1 ? "hv-tile hv-tile-on" : "hv-tile"} x={40 + col * 100} y={90 + row * 100} width="76" height="76" rx="12" />),
          )}
          <Vector x1={78} y1={338} x2={440} y2={60} />
        </>
      );
    // People: the leaders, linked, with the network around them.
    case "about":
      return (
        <>
          <path className="hv-streams" d="M150 260L250 150L350 260L150 260M250 150L250 60M150 260L70 330M350 260L430 330" />
          {(
            [
              [150, 260],
              [250, 150],
              [350, 260],
            ] as const
          ).map(([x, y]) => (
            <g key={x} className="hv-person">
              <circle className="hv-tile" cx={x} cy={y} r="42" />
              <circle className="hv-tile-on" cx={x} cy={y - 10} r="13" />
              <path className="hv-line" d={`M${x - 18} ${y + 20}q18 -16 36 0`} />
            </g>
          ))}
          <g className="hv-nodes">
            <circle cx="250" cy="60" r="7" />
            <circle cx="70" cy="330" r="7" />
            <circle cx="430" cy="330" r="7" />
          </g>
        </>
      );
    // Articles: pages of text, the newest on top.
    case "insights":
      return (
        <>
          {[2, 1, 0].map((i) => (
            <g key={i}>
              <rect className={i === 0 ? "hv-tile hv-tile-page" : "hv-tile"} x={110 + i * 40} y={70 + i * 40} width="220" height="280" rx="14" />
              {i === 0 && <path className="hv-line" d="M140 120h120M140 160h160M140 190h160M140 220h130M140 250h160M140 280h100" />}
            </g>
          ))}
          <Vector x1={300} y1={330} x2={440} y2={190} />
        </>
      );
    // Results: a baseline and the bars measured against it.
    case "results":
      return (
        <>
          <path className="hv-streams" d="M40 300H450" />
          {[120, 150, 190, 240, 300].map((h, i) => (
            <rect key={i} className={i === 4 ? "hv-tile hv-tile-on" : "hv-tile"} x={70 + i * 76} y={360 - h} width="48" height={h} rx="8" />
          ))}
          <Vector x1={80} y1={220} x2={440} y2={60} />
        </>
      );
    // A conversation: a question, an answer, and the next step.
    case "contact":
      return (
        <>
          <path className="hv-tile" d="M60 90h220a16 16 0 0 1 16 16v92a16 16 0 0 1-16 16H130l-40 34v-34H60a16 16 0 0 1-16-16v-92a16 16 0 0 1 16-16z" />
          <path className="hv-tile hv-tile-on" d="M420 220H220a16 16 0 0 0-16 16v72a16 16 0 0 0 16 16h140l40 30v-30h20a16 16 0 0 0 16-16v-72a16 16 0 0 0-16-16z" />
          <path className="hv-line" d="M80 130h170M80 165h120M240 262h150M240 292h90" />
          <path className="hv-streams" d="M296 150Q380 150 400 210" />
        </>
      );
  }
}

/**
 * The visual of an inner page's hero: its kind's motif over the field of points, or the heroes' vector
 * (the compact one) for pages of no particular kind (a form's result, the error pages).
 */
export function PageVisual({ motif }: { motif?: Motif }) {
  if (!motif) return <HeroVisual compact />;
  return (
    <svg className="hero-visual hero-visual-compact" viewBox="0 0 480 420" aria-hidden="true" focusable="false">
      <path className="hv-grid" d={DOT_GRID} />
      <MotifShapes motif={motif} />
    </svg>
  );
}

/**
 * A small chart beside an outcome figure. "fall" and "rise" compare the baseline (100) with the result
 * (100 minus or plus the figure); "share" fills a bar to the figure out of 100. Figures that compare
 * speeds ("50% faster") get no chart: a bar would have to pick between time and rate, and the text says it.
 */
export function OutcomeChart({ kind, value, before, after: afterLabel }: { kind: string; value: number; before: string; after: string }) {
  if (!Number.isFinite(value) || !["fall", "rise", "share"].includes(kind)) return null;
  if (kind === "share") {
    return (
      <svg className="outcome-chart" viewBox="0 0 200 28" aria-hidden="true" focusable="false">
        <rect className="oc-track" x="0" y="8" width="200" height="12" rx="6" />
        <rect className="oc-value" x="0" y="8" width={2 * Math.min(value, 100)} height="12" rx="6" />
      </svg>
    );
  }
  const after = kind === "fall" ? 100 - value : 100 + value;
  const scale = 140 / Math.max(100, after);
  return (
    <svg className="outcome-chart" viewBox="0 0 200 44" aria-hidden="true" focusable="false">
      <text x="0" y="15">{before}</text>
      <rect className="oc-track" x="60" y="4" width={100 * scale} height="14" rx="4" />
      <text x="0" y="37">{afterLabel}</text>
      <rect className="oc-value" x="60" y="26" width={after * scale} height="14" rx="4" />
    </svg>
  );
}

/** A divider between bands of a page: a rule with the vector's mark at its centre. */
export function Divider() {
  return (
    <div className="divider" aria-hidden="true">
      <svg viewBox="0 0 48 16" focusable="false">
        <circle cx="6" cy="8" r="3" />
        <path d="M12 8h22" />
        <path d="M34 2l10 6-10 6z" />
      </svg>
    </div>
  );
}
