import type { Mount, MountMode } from "./island.ts";

/** The mount function of each mounted island, so it can be rendered again with new props. */
const mounted = new WeakMap<HTMLElement, Mount>();

const propsOf = (element: HTMLElement) => JSON.parse(element.dataset.props ?? "{}") as Record<string, unknown>;

/** Loads an island's module (its URL was written into the marker at build time) and mounts it once. */
export async function mountIsland(element: HTMLElement, mode: MountMode = "hydrate"): Promise<void> {
  if (element.dataset.mounted !== undefined) return;
  element.dataset.mounted = "true";
  const src = element.dataset.src;
  if (!src) return;
  let module: { mount: Mount };
  try {
    module = (await import(/* @vite-ignore */ src)) as { mount: Mount };
  } catch (error) {
    // Not loaded (offline, a new deployment): the server-rendered markup stays, and a later trigger may
    // try again.
    delete element.dataset.mounted;
    throw error;
  }
  module.mount(element, propsOf(element), mode);
  mounted.set(element, module.mount);
  element.dataset.hydrated = "true";
}

/**
 * Renders a mounted island again with the props now on its marker (the navigation island puts the new
 * language's strings there). Preact keeps the component's state, so an open banner stays open.
 */
export function refreshIsland(element: HTMLElement): void {
  mounted.get(element)?.(element, propsOf(element), "render");
}

const INTERACTIONS = ["focusin", "pointerenter", "pointerdown", "touchstart", "keydown"] as const;

/**
 * Islands hydrate on the strategy their marker names (data-when): load, idle, visible, or the first
 * interaction with them. "manual" islands are mounted by code that decides when (the consent banner).
 * `eager` (after a client-side navigation) hydrates every island at once.
 */
export function scheduleIslands(root: ParentNode = document, eager = false): void {
  root.querySelectorAll<HTMLElement>("[data-island]").forEach((el) => {
    const when = el.dataset.when ?? "load";
    // A failure leaves the page as it works without JavaScript (the forms post as plain HTML forms).
    const go = () => mountIsland(el).catch(() => {});
    if (when === "manual") return;
    // After a client-side navigation the modules are usually cached already: hydrate new content at once.
    if (when === "load" || eager) go();
    else if (when === "idle")
      "requestIdleCallback" in window ? requestIdleCallback(go, { timeout: 2000 }) : setTimeout(go, 200);
    else if (when === "visible") {
      const io = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) {
            io.disconnect();
            go();
          }
        },
        { rootMargin: "200px" },
      );
      io.observe(el);
    } else if (when === "interaction") {
      const once = () => {
        for (const type of INTERACTIONS) el.removeEventListener(type, once, true);
        go();
      };
      for (const type of INTERACTIONS) el.addEventListener(type, once, { capture: true, passive: true });
    }
  });
}
