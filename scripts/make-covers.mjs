#!/usr/bin/env node
/**
 * Draws the articles' covers: abstract data and graph motifs in the site's navy and teal (src/styles/base.css),
 * one per topic, as SVG rasterised by sharp into content/images/insights/<translation key>.webp (1600×800).
 * No stock photo is reachable from here, and invented photographs of people or offices would mislead, so
 * the covers are drawn. They are committed as WebP, like any photo an editor would add: the build's image
 * pipeline reads them as it reads photographs, and swapping one for a real picture is replacing a file.
 * It also draws the site's own card (content/images/social-card.webp, 1200×630, content/site.yaml's
 * socialImage): the brand's mark and name over a field of vectors, which a page without an image of its own
 * shows when a link to it is shared. It carries no words but the brand's, so both languages share it.
 * Run it again (node scripts/make-covers.mjs) after changing a drawing; the same input gives the same files.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { load } from "js-yaml";

const W = 1600;
const H = 800;
const OUT = join(import.meta.dirname, "..", "content", "images", "insights");
const C = {
  navy: "#0b1f33",
  navy2: "#12304d",
  brand: "#0b5c8c",
  teal: "#14a593",
  tealLight: "#5fd3c3",
  mist: "#c7d3df",
  orange: "#c2410c",
};

/** A small deterministic random generator (mulberry32), so a drawing never changes between runs. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const r2 = (n) => Math.round(n * 10) / 10;

/** An SVG document of that size holding `body`. */
const svgDocument = (w, h, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;

/** The shared backdrop: a navy gradient, a faint grid and a soft teal glow where the motif sits. */
function backdrop(glowX, glowY) {
  const grid = [];
  for (let x = 0; x <= W; x += 80) grid.push(`<line x1="${x}" y1="0" x2="${x}" y2="${H}"/>`);
  for (let y = 0; y <= H; y += 80) grid.push(`<line x1="0" y1="${y}" x2="${W}" y2="${y}"/>`);
  return `<defs>
  <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${C.navy}"/>
    <stop offset="1" stop-color="${C.navy2}"/>
  </linearGradient>
  <radialGradient id="glow" cx="${glowX}" cy="${glowY}" r="0.55">
    <stop offset="0" stop-color="${C.teal}" stop-opacity="0.28"/>
    <stop offset="1" stop-color="${C.teal}" stop-opacity="0"/>
  </radialGradient>
  <linearGradient id="fade" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${C.tealLight}" stop-opacity="0.45"/>
    <stop offset="1" stop-color="${C.tealLight}" stop-opacity="0"/>
  </linearGradient>
</defs>
<rect width="${W}" height="${H}" fill="url(#bg)"/>
<rect width="${W}" height="${H}" fill="url(#glow)"/>
<g stroke="${C.mist}" stroke-opacity="0.07" stroke-width="1">${grid.join("")}</g>`;
}

/** Governance: layered rings of checkpoints around a core, every system inside a boundary. */
function governance(rnd) {
  const cx = 1060;
  const cy = 400;
  const parts = [];
  [330, 240, 150].forEach((radius, ring) => {
    parts.push(
      `<circle cx="${cx}" cy="${cy}" r="${radius}" fill="none" stroke="${ring === 0 ? C.tealLight : C.mist}"
        stroke-opacity="${0.25 + ring * 0.15}" stroke-width="${ring === 0 ? 3 : 2}"
        stroke-dasharray="${ring === 1 ? "10 12" : "none"}"/>`,
    );
    const count = 8 + ring * 2;
    for (let i = 0; i < count; i++) {
      const a = (i / count) * Math.PI * 2 + ring * 0.3;
      const x = cx + Math.cos(a) * radius;
      const y = cy + Math.sin(a) * radius;
      parts.push(
        `<circle cx="${r2(x)}" cy="${r2(y)}" r="${ring === 0 ? 9 : 7}" fill="${i % 3 === 0 ? C.teal : C.navy}"
          stroke="${C.tealLight}" stroke-width="2"/>`,
      );
      if (ring === 2)
        parts.push(
          `<line x1="${cx}" y1="${cy}" x2="${r2(x)}" y2="${r2(y)}" stroke="${C.tealLight}" stroke-opacity="0.35"
            stroke-width="2"/>`,
        );
    }
  });
  parts.push(
    `<path d="M${cx} ${cy - 70} l60 26 v44 c0 42 -28 70 -60 84 c-32 -14 -60 -42 -60 -84 v-44 z" fill="${C.teal}"
      fill-opacity="0.85"/>`,
  );
  parts.push(
    `<path d="M${cx - 26} ${cy + 8} l18 18 l36 -40" fill="none" stroke="${C.navy}" stroke-width="10"
      stroke-linecap="round" stroke-linejoin="round"/>`,
  );
  for (let i = 0; i < 14; i++)
    parts.push(
      `<rect x="${r2(120 + rnd() * 420)}" y="${r2(120 + i * 40)}" width="${r2(60 + rnd() * 260)}" height="12" rx="6"
        fill="${C.mist}" fill-opacity="${r2(0.08 + rnd() * 0.14)}"/>`,
    );
  return backdrop(0.66, 0.5) + parts.join("");
}

/** Generative pilots: many small experiments, few lines that climb through the gates into production. */
function pilots(rnd) {
  const parts = [];
  const gates = [520, 900, 1280];
  for (const x of gates)
    parts.push(
      `<line x1="${x}" y1="120" x2="${x}" y2="700" stroke="${C.mist}" stroke-opacity="0.3" stroke-width="3"
        stroke-dasharray="4 14"/>`,
    );
  for (let i = 0; i < 16; i++) {
    const survives = i % 5 === 0;
    let x = 120;
    let y = 600 - rnd() * 120;
    let d = `M${x} ${r2(y)}`;
    const end = survives ? 1500 : gates[Math.floor(rnd() * 2)] + rnd() * 60;
    while (x < end) {
      x += 40;
      y -= survives ? 8 + rnd() * 6 : (rnd() - 0.45) * 30;
      d += ` L${x} ${r2(y)}`;
    }
    parts.push(
      `<path d="${d}" fill="none" stroke="${survives ? C.tealLight : C.mist}" stroke-opacity="${survives ? 0.95 : 0.25}"
        stroke-width="${survives ? 5 : 2}" stroke-linejoin="round"/>`,
    );
    parts.push(
      `<circle cx="${x}" cy="${r2(y)}" r="${survives ? 10 : 5}" fill="${survives ? C.teal : C.mist}"
        fill-opacity="${survives ? 1 : 0.4}"/>`,
    );
  }
  return backdrop(0.85, 0.25) + parts.join("");
}

/** Back-office agents: a flow of tasks between tools, with the exceptions routed to a person. */
function agents(rnd) {
  const parts = [];
  const nodes = [];
  for (let col = 0; col < 5; col++) {
    const rows = col === 2 ? 1 : 3;
    for (let row = 0; row < rows; row++)
      nodes.push({ x: 220 + col * 290, y: rows === 1 ? 400 : 200 + row * 200, col, hub: col === 2 });
  }
  for (const a of nodes) {
    for (const b of nodes) {
      if (b.col !== a.col + 1 || (!a.hub && !b.hub && rnd() < 0.5)) continue;
      const mx = (a.x + b.x) / 2;
      parts.push(
        `<path d="M${a.x} ${a.y} C${mx} ${a.y} ${mx} ${b.y} ${b.x} ${b.y}" fill="none" stroke="${C.tealLight}"
          stroke-opacity="0.45" stroke-width="3"/>`,
      );
    }
  }
  for (const n of nodes) {
    const size = n.hub ? 120 : 76;
    parts.push(
      `<rect x="${n.x - size / 2}" y="${n.y - size / 2}" width="${size}" height="${size}" rx="${n.hub ? 28 : 16}"
        fill="${n.hub ? C.teal : C.navy2}" stroke="${C.tealLight}" stroke-width="3"/>`,
    );
    if (n.hub)
      parts.push(
        `<circle cx="${n.x}" cy="${n.y}" r="22" fill="${C.navy}"/>
          <circle cx="${n.x}" cy="${n.y}" r="8" fill="${C.tealLight}"/>`,
      );
    else
      for (let i = 0; i < 3; i++)
        parts.push(
          `<rect x="${n.x - 22}" y="${n.y - 18 + i * 14}" width="${r2(20 + rnd() * 24)}" height="6" rx="3"
            fill="${C.mist}" fill-opacity="0.6"/>`,
        );
  }
  parts.push(
    `<path d="M${nodes[5].x} ${nodes[5].y + 60} C${nodes[5].x} 720 1100 720 1100 660" fill="none" stroke="${C.orange}"
      stroke-width="4" stroke-dasharray="12 10"/>`,
  );
  parts.push(
    `<circle cx="1100" cy="640" r="22" fill="none" stroke="${C.orange}" stroke-width="4"/>
      <circle cx="1100" cy="632" r="7" fill="${C.orange}"/>`,
  );
  return backdrop(0.5, 0.5) + parts.join("");
}

/** AI-ready data: a table whose columns gain owners and checks, flowing into one clean data product. */
function data(rnd) {
  const parts = [];
  for (let row = 0; row < 9; row++) {
    for (let col = 0; col < 7; col++) {
      const good = rnd() > 0.22;
      parts.push(
        `<rect x="${140 + col * 96}" y="${150 + row * 58}" width="84" height="44" rx="6"
          fill="${good ? C.brand : C.navy}" fill-opacity="${good ? r2(0.35 + rnd() * 0.4) : 0.6}"
          stroke="${good ? "none" : C.orange}" stroke-opacity="0.7" stroke-width="2"/>`,
      );
    }
  }
  for (let i = 0; i < 5; i++)
    parts.push(
      `<path d="M830 ${240 + i * 80} C960 ${240 + i * 80} 1000 400 1130 400" fill="none" stroke="${C.tealLight}"
        stroke-opacity="0.5" stroke-width="3"/>`,
    );
  for (let i = 0; i < 3; i++) {
    const y = 300 + i * 70;
    parts.push(
      `<ellipse cx="1300" cy="${y}" rx="150" ry="34" fill="${i === 0 ? C.tealLight : C.teal}"
        fill-opacity="${1 - i * 0.2}"/>`,
    );
    parts.push(`<rect x="1150" y="${y}" width="300" height="70" fill="${C.teal}" fill-opacity="${0.75 - i * 0.2}"/>`);
  }
  parts.push(`<ellipse cx="1300" cy="510" rx="150" ry="34" fill="${C.brand}"/>`);
  return backdrop(0.8, 0.45) + parts.join("");
}

/** Portfolio return: cost bars against a value curve that overtakes them, with stage gates that stop some. */
function portfolio(rnd) {
  const parts = [];
  const base = 660;
  const bars = 12;
  const points = [];
  for (let i = 0; i < bars; i++) {
    const x = 170 + i * 110;
    const cost = 120 + rnd() * 80 + (i < 3 ? 60 : 0);
    const stopped = i === 4 || i === 8;
    parts.push(
      `<rect x="${x}" y="${r2(base - cost)}" width="56" height="${r2(cost)}" rx="6" fill="${stopped ? C.mist : C.brand}"
        fill-opacity="${stopped ? 0.25 : 0.75}"/>`,
    );
    if (stopped)
      parts.push(
        `<line x1="${x - 8}" y1="${r2(base - cost - 16)}" x2="${x + 64}" y2="${r2(base - cost - 16)}"
          stroke="${C.orange}" stroke-width="5" stroke-linecap="round"/>`,
      );
    points.push([x + 28, r2(base - 40 - Math.pow(i / (bars - 1), 1.6) * 480)]);
  }
  const d = points.map(([x, y], i) => `${i ? "L" : "M"}${x} ${y}`).join(" ");
  parts.push(`<path d="${d} L${points.at(-1)[0]} ${base} L${points[0][0]} ${base} Z" fill="url(#fade)"/>`);
  parts.push(`<path d="${d}" fill="none" stroke="${C.tealLight}" stroke-width="6" stroke-linejoin="round"/>`);
  for (const [x, y] of points)
    parts.push(`<circle cx="${x}" cy="${y}" r="8" fill="${C.navy}" stroke="${C.tealLight}" stroke-width="4"/>`);
  parts.push(
    `<line x1="120" y1="${base}" x2="1500" y2="${base}" stroke="${C.mist}" stroke-opacity="0.5" stroke-width="2"/>`,
  );
  return backdrop(0.75, 0.3) + parts.join("");
}

/** MLOps: the loop of train, deploy, monitor and roll back, around a signal that drifts and is caught. */
function mlops(rnd) {
  const parts = [];
  const cx = 430;
  const cy = 400;
  parts.push(
    `<circle cx="${cx}" cy="${cy}" r="220" fill="none" stroke="${C.tealLight}" stroke-opacity="0.6" stroke-width="6"
      stroke-dasharray="300 45"/>`,
  );
  for (let i = 0; i < 4; i++) {
    const a = (i / 4) * Math.PI * 2 - Math.PI / 4;
    parts.push(
      `<circle cx="${r2(cx + Math.cos(a) * 220)}" cy="${r2(cy + Math.sin(a) * 220)}" r="34"
        fill="${i === 2 ? C.teal : C.navy2}" stroke="${C.tealLight}" stroke-width="4"/>`,
    );
  }
  parts.push(`<circle cx="${cx}" cy="${cy}" r="70" fill="${C.brand}" fill-opacity="0.8"/>`);
  let d = "";
  for (let x = 760; x <= 1520; x += 10) {
    const drift = x > 1180 ? (x - 1180) * 0.35 : 0;
    const y = 400 + Math.sin(x / 28) * 36 + (rnd() - 0.5) * 14 - drift;
    d += `${d ? " L" : "M"}${x} ${r2(y)}`;
  }
  parts.push(`<rect x="760" y="330" width="760" height="140" fill="${C.teal}" fill-opacity="0.12"/>`);
  parts.push(`<path d="${d}" fill="none" stroke="${C.tealLight}" stroke-width="4" stroke-linejoin="round"/>`);
  parts.push(
    `<line x1="1300" y1="160" x2="1300" y2="640" stroke="${C.orange}" stroke-width="4" stroke-dasharray="10 10"/>`,
  );
  parts.push(`<circle cx="1300" cy="${r2(400 - (1300 - 1180) * 0.35)}" r="14" fill="${C.orange}"/>`);
  return backdrop(0.3, 0.5) + parts.join("");
}

/** Credit decisions: applicants as points, a decision boundary, and the cases near it flagged for review. */
function credit(rnd) {
  const parts = [];
  const boundary = (x) => 620 - (x - 140) * 0.32 - Math.sin(x / 180) * 40;
  let d = "";
  for (let x = 140; x <= 1480; x += 20) d += `${d ? " L" : "M"}${x} ${r2(boundary(x))}`;
  parts.push(`<path d="${d} L1480 120 L140 120 Z" fill="${C.teal}" fill-opacity="0.1"/>`);
  for (let i = 0; i < 170; i++) {
    const x = 160 + rnd() * 1300;
    const y = 140 + rnd() * 540;
    const gap = boundary(x) - y;
    const near = Math.abs(gap) < 36;
    const approved = gap > 0;
    parts.push(
      near
        ? `<circle cx="${r2(x)}" cy="${r2(y)}" r="11" fill="none" stroke="${C.orange}" stroke-width="3"/>`
        : `<circle cx="${r2(x)}" cy="${r2(y)}" r="${approved ? 7 : 6}" fill="${approved ? C.tealLight : C.mist}"
          fill-opacity="${approved ? 0.85 : 0.3}"/>`,
    );
  }
  parts.push(`<path d="${d}" fill="none" stroke="${C.tealLight}" stroke-width="5"/>`);
  return backdrop(0.6, 0.35) + parts.join("");
}

/** Each article's translation key (the file name both languages share) and its drawing. */
const COVERS = {
  "ai-governance": governance,
  "generative-ai-pilots": pilots,
  "ai-agents-back-office": agents,
  "ai-ready-data": data,
  "ai-portfolio-return": portfolio,
  "mlops-llmops": mlops,
  "ai-credit-decisions": credit,
};

/**
 * The site's card: the header's mark (the brand's initial on its blue-to-teal square) and the brand's name
 * on the left; on the right, a field of arrows turning towards one point, the "vector" of the name.
 */
function socialCard(brand) {
  const w = 1200;
  const h = 630;
  const parts = [
    `<defs>
  <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${C.navy}"/>
    <stop offset="1" stop-color="${C.navy2}"/>
  </linearGradient>
  <radialGradient id="glow" cx="0.74" cy="0.5" r="0.5">
    <stop offset="0" stop-color="${C.teal}" stop-opacity="0.3"/>
    <stop offset="1" stop-color="${C.teal}" stop-opacity="0"/>
  </radialGradient>
  <linearGradient id="mark" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${C.brand}"/>
    <stop offset="1" stop-color="#065f55"/>
  </linearGradient>
</defs>
<rect width="${w}" height="${h}" fill="url(#bg)"/>
<rect width="${w}" height="${h}" fill="url(#glow)"/>`,
  ];
  const target = { x: 1010, y: 315 };
  for (let gx = 620; gx <= 1160; gx += 45) {
    for (let gy = 45; gy <= 600; gy += 45) {
      const dx = target.x - gx;
      const dy = target.y - gy;
      const distance = Math.hypot(dx, dy);
      if (distance < 40) continue;
      // Each arrow points at the target, turned a little less the further it is: a field converging on one point.
      const angle = Math.atan2(dy, dx) + Math.min(0.9, distance / 600) * 0.6;
      const length = 20;
      const x2 = gx + Math.cos(angle) * length;
      const y2 = gy + Math.sin(angle) * length;
      const near = distance < 170;
      parts.push(
        `<line x1="${r2(gx)}" y1="${r2(gy)}" x2="${r2(x2)}" y2="${r2(y2)}" stroke="${near ? C.tealLight : C.mist}"
          stroke-opacity="${near ? 0.9 : 0.35}" stroke-width="3" stroke-linecap="round"/>`,
      );
      parts.push(
        `<circle cx="${r2(x2)}" cy="${r2(y2)}" r="3.5" fill="${near ? C.tealLight : C.mist}"
          fill-opacity="${near ? 0.9 : 0.35}"/>`,
      );
    }
  }
  parts.push(
    `<circle cx="${target.x}" cy="${target.y}" r="16" fill="${C.teal}" stroke="${C.tealLight}" stroke-width="4"/>`,
  );
  const font = "Liberation Sans, Arimo, DejaVu Sans, Arial, sans-serif";
  parts.push(`<rect x="80" y="215" width="120" height="120" rx="28" fill="url(#mark)"/>`);
  parts.push(
    `<text x="140" y="304" font-family="${font}" font-size="84" font-weight="800" text-anchor="middle"
      fill="#ffffff">${brand.charAt(0)}</text>`,
  );
  parts.push(
    `<text x="80" y="450" font-family="${font}" font-size="96" font-weight="800" fill="#ffffff">${brand}</text>`,
  );
  parts.push(`<rect x="82" y="486" width="150" height="8" rx="4" fill="${C.tealLight}"/>`);
  return svgDocument(w, h, parts.join(""));
}

mkdirSync(OUT, { recursive: true });
{
  const config = load(readFileSync(join(import.meta.dirname, "..", "content", "site.yaml"), "utf8"));
  const file = join(OUT, "..", "social-card.webp");
  const info = await sharp(Buffer.from(socialCard(config.brand)))
    .webp({ quality: 86, effort: 6 })
    .toFile(file);
  console.log(`${file}: ${info.width}×${info.height}, ${(info.size / 1024).toFixed(1)} KB`);
}
let seed = 17;
for (const [key, draw] of Object.entries(COVERS)) {
  const svg = svgDocument(W, H, draw(random(seed++)));
  const file = join(OUT, `${key}.webp`);
  const info = await sharp(Buffer.from(svg)).webp({ quality: 82, effort: 6 }).toFile(file);
  console.log(`${file}: ${info.width}×${info.height}, ${(info.size / 1024).toFixed(1)} KB`);
}
