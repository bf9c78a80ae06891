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
