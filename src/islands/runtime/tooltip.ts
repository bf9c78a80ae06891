/**
 * Tooltips for the language switcher and icon-only controls (spec §4/§9): open after 700 ms of hover, at
 * once when another tooltip closed less than 300 ms ago (skip delay) or on keyboard focus; 4 px from the
 * trigger; closed by Escape, scroll, click, blur or pointer leave. The text is also the trigger's
 * accessible description (aria-describedby), so screen readers get it without hovering.
 */
export const OPEN_DELAY_MS = 700;
export const SKIP_DELAY_MS = 300;
export const OFFSET_PX = 4;

let counter = 0;
let lastClosedAt = -Infinity;
let openTip: { trigger: HTMLElement; tip: HTMLElement } | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
/** Each tooltip element and its trigger, so tooltips of triggers a navigation removed can go too. */
const tips = new Map<HTMLElement, HTMLElement>();

export function attachTooltip(trigger: HTMLElement, text = trigger.dataset.tooltip ?? ""): void {
  if (!text || trigger.dataset.tooltipReady !== undefined) return;
  trigger.dataset.tooltipReady = "true";
  const tip = document.createElement("div");
  tip.id = `tooltip-${++counter}`;
  tip.setAttribute("role", "tooltip");
  tip.className = "tooltip";
  tip.hidden = true;
  tip.textContent = text;
  document.body.append(tip);
  tips.set(tip, trigger);
  trigger.setAttribute(
    "aria-describedby",
    [trigger.getAttribute("aria-describedby"), tip.id].filter(Boolean).join(" "),
  );

  const schedule = () => {
    clearTimeout(timer);
    const skip = performance.now() - lastClosedAt < SKIP_DELAY_MS;
    if (skip) show(trigger, tip);
    else timer = setTimeout(() => show(trigger, tip), OPEN_DELAY_MS);
  };
  trigger.addEventListener("pointerenter", (e) => {
    if ((e as PointerEvent).pointerType !== "touch") schedule();
  });
  trigger.addEventListener("pointerleave", () => hide(tip));
  trigger.addEventListener("focus", () => {
    if (trigger.matches(":focus-visible")) {
      clearTimeout(timer);
      show(trigger, tip);
    }
  });
  trigger.addEventListener("blur", () => hide(tip));
  trigger.addEventListener("pointerdown", () => hide(tip));
  trigger.addEventListener("click", () => hide(tip));
}

function show(trigger: HTMLElement, tip: HTMLElement): void {
  if (openTip && openTip.tip !== tip) hide(openTip.tip);
  tip.hidden = false;
  openTip = { trigger, tip };
  const t = trigger.getBoundingClientRect();
  const w = tip.offsetWidth;
  const h = tip.offsetHeight;
  const below = t.bottom + OFFSET_PX + h <= innerHeight;
  const left = Math.min(Math.max(4, t.left + t.width / 2 - w / 2), document.documentElement.clientWidth - w - 4);
  tip.style.left = `${left + scrollX}px`;
  tip.style.top = `${(below ? t.bottom + OFFSET_PX : t.top - OFFSET_PX - h) + scrollY}px`;
  tip.dataset.side = below ? "bottom" : "top";
}

function hide(tip: HTMLElement): void {
  clearTimeout(timer);
  if (tip.hidden) return;
  tip.hidden = true;
  lastClosedAt = performance.now();
  if (openTip?.tip === tip) openTip = null;
}

/** Wires every [data-tooltip] in the page and the global closers (Escape, scroll). */
export function initTooltips(root: ParentNode = document): void {
  root.querySelectorAll<HTMLElement>("[data-tooltip]").forEach((el) => attachTooltip(el));
  if (root !== document) return;
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && openTip) hide(openTip.tip);
  });
  addEventListener("scroll", () => openTip && hide(openTip.tip), { passive: true, capture: true });
}

/** Removes the tooltips whose trigger left the page (the navigation island replaced it). */
export function pruneTooltips(): void {
  for (const [tip, trigger] of tips) {
    if (trigger.isConnected) continue;
    if (openTip?.tip === tip) openTip = null;
    tip.remove();
    tips.delete(tip);
  }
}
