import { attachTooltip } from "./tooltip.ts";

/**
 * The two toast systems of spec §9, each a region server-rendered in every page (Document), so screen
 * readers already track it when its first toast arrives:
 * - "main" (the newsletter's results): at most 3 toasts, 4 s each by default, bottom-right, 356 px wide
 *   with 14 px between them (CSS); Alt+T moves focus to it;
 * - "alert" (the contact form's results): 1 toast, 5 s, top-right; F8 moves focus to it.
 * Both: swipe past 50 px to dismiss, paused while hovered or focused or while the tab is hidden. The
 * hotkeys are wired in main.ts, before any toast exists.
 */
export const SYSTEMS = { main: { max: 3, duration: 4000 }, alert: { max: 1, duration: 5000 } } as const;
export type ToastSystem = keyof typeof SYSTEMS;
export const SWIPE_THRESHOLD_PX = 50;

export interface ToastInput {
  title: string;
  description?: string;
  type?: "success" | "error";
  duration?: number;
  system?: ToastSystem;
  /** The control that raised it: the stack moves to the other end of the screen rather than cover it. */
  origin?: Element | null;
}

interface LiveToast {
  el: HTMLLIElement;
  remaining: number;
  startedAt: number;
  timer?: ReturnType<typeof setTimeout>;
  toaster: Toaster;
}

interface Toaster {
  section: HTMLElement;
  live: LiveToast[];
  paused: boolean;
}

const toasters = new Map<HTMLElement, Toaster>();

function region(system: ToastSystem): { section: HTMLElement; list: HTMLOListElement } | null {
  const section = document.querySelector<HTMLElement>(`[data-toaster="${system}"]`);
  const list = section?.querySelector("ol");
  return section && list ? { section, list } : null;
}

export function toast(input: ToastInput): void {
  const system = input.system ?? "main";
  const r = region(system);
  if (!r) return;
  const toaster = wire(r.section);
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
  el.append(text, close);
  r.list.append(el);
  attachTooltip(close);

  const entry: LiveToast = {
    el,
    remaining: input.duration ?? SYSTEMS[system].duration,
    startedAt: performance.now(),
    toaster,
  };
  toaster.live.push(entry);
  close.addEventListener("click", () => dismiss(entry));
  swipeToDismiss(entry);
  while (toaster.live.length > SYSTEMS[system].max) dismiss(toaster.live[0]);
  if (input.origin) keepClear(r.section, input.origin);
  if (!toaster.paused) start(entry);
}

/**
 * A toast over the button that raised it blocks the retry, and hovering it to reach the button pauses its
 * timer, so it never leaves: the stack takes the other end of the screen when its own end covers the control.
 */
function keepClear(section: HTMLElement, origin: Element): void {
  const b = origin.getBoundingClientRect();
  const covers = () => {
    const a = section.getBoundingClientRect();
    return a.top < b.bottom && b.top < a.bottom && a.left < b.right && b.left < a.right;
  };
  section.classList.remove("flip");
  if (covers()) section.classList.add("flip");
  if (covers()) section.classList.remove("flip");
}

function start(entry: LiveToast): void {
  entry.startedAt = performance.now();
  clearTimeout(entry.timer);
  if (Number.isFinite(entry.remaining)) entry.timer = setTimeout(() => dismiss(entry), entry.remaining);
}

function pause(toaster: Toaster): void {
  if (toaster.paused) return;
  toaster.paused = true;
  for (const t of toaster.live) {
    clearTimeout(t.timer);
    t.remaining = Math.max(0, t.remaining - (performance.now() - t.startedAt));
  }
}

function resume(toaster: Toaster): void {
  if (!toaster.paused) return;
  toaster.paused = false;
  for (const t of toaster.live) start(t);
}

export function dismiss(entry: LiveToast): void {
  const { live, section } = entry.toaster;
  const i = live.indexOf(entry);
  if (i === -1) return;
  live.splice(i, 1);
  clearTimeout(entry.timer);
  const el = entry.el;
  // Focus must not fall to <body> when the focused toast goes away.
  const hadFocus = el.contains(document.activeElement);
  el.remove();
  document
    .querySelectorAll(`#${el.querySelector(".toast-close")?.getAttribute("aria-describedby")}`)
    .forEach((tip) => tip.remove());
  if (hadFocus) (live.at(-1)?.el.querySelector("button") ?? section).focus();
}

function wire(section: HTMLElement): Toaster {
  let toaster = toasters.get(section);
  if (toaster) return toaster;
  const t: Toaster = (toaster = { section, live: [], paused: false });
  toasters.set(section, t);
  section.addEventListener("pointerenter", () => pause(t));
  section.addEventListener("pointerleave", () => !document.hidden && resume(t));
  section.addEventListener("focusin", () => pause(t));
  section.addEventListener("focusout", (e) => {
    if (!section.contains(e.relatedTarget as Node | null)) resume(t);
  });
  document.addEventListener("visibilitychange", () => (document.hidden ? pause(t) : resume(t)));
  return t;
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
