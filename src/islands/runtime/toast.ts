import { attachTooltip } from "./tooltip.ts";

/**
 * The toaster of spec §4/§9: at most 3 toasts, 4 s each by default, bottom-right, 356 px wide with 14 px
 * between them (CSS), swipe past 50 px to dismiss, paused while hovered or while the tab is hidden.
 * The live region is server-rendered in every page (Document), so screen readers already track it when
 * the first toast arrives; Alt+T and F8 move focus to it (wired in main.ts, before any toast exists).
 */
export const MAX_TOASTS = 3;
export const DEFAULT_DURATION_MS = 4000;
export const SWIPE_THRESHOLD_PX = 50;

export interface ToastInput {
  title: string;
  description?: string;
  type?: "success" | "error";
  duration?: number;
}

interface LiveToast {
  el: HTMLLIElement;
  remaining: number;
  startedAt: number;
  timer?: ReturnType<typeof setTimeout>;
}

const live: LiveToast[] = [];
let paused = false;
let wired = false;

function region(): { section: HTMLElement; list: HTMLOListElement } | null {
  const section = document.querySelector<HTMLElement>("[data-toaster]");
  const list = section?.querySelector("ol");
  return section && list ? { section, list } : null;
}

export function toast(input: ToastInput): void {
  const r = region();
  if (!r) return;
  wire(r.section);
  const el = document.createElement("li");
  el.className = `toast toast-${input.type ?? "success"}`;
  el.dataset.type = input.type ?? "success";
  const text = document.createElement("div");
  const title = document.createElement("p");
  title.className = "toast-title";
  title.textContent = input.title;
  text.append(title);
  if (input.description) {
    const description = document.createElement("p");
    description.className = "toast-description";
    description.textContent = input.description;
    text.append(description);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  const closeLabel = r.section.dataset.closeLabel ?? "Close";
  close.setAttribute("aria-label", closeLabel);
  close.dataset.tooltip = closeLabel;
  close.innerHTML = '<svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round"><path d="M18 6 6 18M6 6l12 12"/></svg>';
  el.append(text, close);
  r.list.append(el);
  attachTooltip(close);

  const entry: LiveToast = { el, remaining: input.duration ?? DEFAULT_DURATION_MS, startedAt: performance.now() };
  live.push(entry);
  close.addEventListener("click", () => dismiss(entry));
  swipeToDismiss(entry);
  while (live.length > MAX_TOASTS) dismiss(live[0]);
  if (!paused) start(entry);
}

function start(entry: LiveToast): void {
  entry.startedAt = performance.now();
  clearTimeout(entry.timer);
  if (Number.isFinite(entry.remaining)) entry.timer = setTimeout(() => dismiss(entry), entry.remaining);
}

function pause(): void {
  if (paused) return;
  paused = true;
  for (const t of live) {
    clearTimeout(t.timer);
    t.remaining = Math.max(0, t.remaining - (performance.now() - t.startedAt));
  }
}

function resume(): void {
  if (!paused) return;
  paused = false;
  for (const t of live) start(t);
}

export function dismiss(entry: LiveToast): void {
  const i = live.indexOf(entry);
  if (i === -1) return;
  live.splice(i, 1);
  clearTimeout(entry.timer);
  const el = entry.el;
  // Focus must not fall to <body> when the focused toast goes away.
  const hadFocus = el.contains(document.activeElement);
  el.remove();
  document.querySelectorAll(`#${el.querySelector(".toast-close")?.getAttribute("aria-describedby")}`).forEach((tip) => tip.remove());
  if (hadFocus) (live.at(-1)?.el.querySelector("button") ?? region()?.section)?.focus();
}

function wire(section: HTMLElement): void {
  if (wired) return;
  wired = true;
  section.addEventListener("pointerenter", pause);
  section.addEventListener("pointerleave", () => !document.hidden && resume());
  section.addEventListener("focusin", pause);
  section.addEventListener("focusout", (e) => {
    if (!section.contains(e.relatedTarget as Node | null)) resume();
  });
  document.addEventListener("visibilitychange", () => (document.hidden ? pause() : resume()));
}

function swipeToDismiss(entry: LiveToast): void {
  const el = entry.el;
  let startX: number | null = null;
  el.addEventListener("pointerdown", (e) => {
    if ((e.target as Element).closest("button")) return;
    startX = e.clientX;
    el.setPointerCapture(e.pointerId);
  });
  el.addEventListener("pointermove", (e) => {
    if (startX === null) return;
    const dx = Math.max(0, e.clientX - startX);
    el.style.transform = `translateX(${dx}px)`;
    el.style.opacity = String(Math.max(0.2, 1 - dx / 200));
  });
  const end = (e: PointerEvent) => {
    if (startX === null) return;
    const dx = e.clientX - startX;
    startX = null;
    if (Math.abs(dx) > SWIPE_THRESHOLD_PX) dismiss(entry);
    else {
      el.style.transform = "";
      el.style.opacity = "";
    }
  };
  el.addEventListener("pointerup", end);
  el.addEventListener("pointercancel", end);
}

export function visibleToasts(): number {
  return live.length;
}
