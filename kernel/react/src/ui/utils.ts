/** Joins class names, skipping falsy ones. */
export function cx(...names: ReadonlyArray<string | false | null | undefined>): string {
  let out = ""
  for (const name of names) {
    if (name) out = out ? `${out} ${name}` : name
  }
  return out
}

/** True when the user asked the system for reduced motion (false outside a browser). */
export function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" ? window.matchMedia("(prefers-reduced-motion: reduce)").matches : false
}

const FOCUSABLE =
  'a[href],area[href],button:not([disabled]),input:not([disabled]):not([type="hidden"]),select:not([disabled]),textarea:not([disabled]),iframe,[contenteditable=""],[contenteditable="true"],[tabindex]'

/** Tabbable descendants of `root`, in DOM order. */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => el.tabIndex >= 0 && !el.hasAttribute("inert") && !el.closest("[inert]") && el.getAttribute("aria-hidden") !== "true",
  )
}
