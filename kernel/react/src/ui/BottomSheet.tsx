import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
} from "react"
import { createPortal } from "react-dom"
import styles from "./BottomSheet.module.css"
import { IconButton } from "./IconButton.tsx"
import { cx, prefersReducedMotion, tabbables } from "./utils.ts"

/** Spec section 2: "Bottom sheets animate 350 ms and 200 ms" (open, close). */
export const BOTTOM_SHEET_OPEN_MS = 350
export const BOTTOM_SHEET_CLOSE_MS = 200

/** Kit choices for swipe-down-to-close (dragging the handle / header). */
export const BOTTOM_SHEET_DRAG_ACTIVATION_PX = 10
export const BOTTOM_SHEET_DRAG_CLOSE_RATIO = 0.3
export const BOTTOM_SHEET_DRAG_CLOSE_VELOCITY = 0.5

export type BottomSheetPhase = "opening" | "open" | "closing"

export interface BottomSheetProps {
  open: boolean
  /** Called on Escape, backdrop tap and the close button; the parent sets `open` to false. */
  onClose: () => void
  /** Called once the close animation has finished and the sheet is unmounted. */
  onClosed?: () => void
  /** Visible title; it also labels the dialog. */
  title?: ReactNode
  /** Accessible name when there is no visible title. */
  "aria-label"?: string
  "aria-labelledby"?: string
  "aria-describedby"?: string
  /** Accessible name of the close (×) button; without it no close button is rendered. */
  closeLabel?: string
  closeOnBackdrop?: boolean
  closeOnEscape?: boolean
  /**
   * Element to focus on open. Default: the dialog itself, so no focus ring flashes and no input pops
   * the keyboard up on touch; Tab then enters the content.
   */
  initialFocusRef?: RefObject<HTMLElement | null>
  /** Pinned under the scrolling content (buttons). */
  footer?: ReactNode
  /** Drag handle on top (decorative); default true. */
  handle?: boolean
  /** Dragging the handle / header down closes the sheet (default true; also needs closeOnBackdrop). */
  swipeToClose?: boolean
  children?: ReactNode
  className?: string
  /** Portal target; default document.body. */
  container?: Element | null
}

let scrollLocks = 0
let savedOverflow = ""

function lockScroll(): () => void {
  if (scrollLocks++ === 0) {
    savedOverflow = document.body.style.overflow
    document.body.style.overflow = "hidden"
  }
  return () => {
    if (--scrollLocks === 0) document.body.style.overflow = savedOverflow
  }
}

function CloseIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
      <path d="M1 1l12 12M13 1L1 13" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  )
}

/** A modal dialog sliding up from the bottom, rendered in a portal. */
export function BottomSheet(props: BottomSheetProps) {
  const { open, onClose, title, closeLabel, closeOnBackdrop = true, closeOnEscape = true, initialFocusRef, footer, handle = true } = props
  const swipeToClose = (props.swipeToClose ?? true) && closeOnBackdrop
  const drag = useRef<{ pointerId: number; startY: number; active: boolean; offset: number; samples: Array<{ t: number; y: number }> } | null>(null)
  const id = useId()
  const titleId = `${id}-title`
  const panelRef = useRef<HTMLDivElement>(null)
  const [mounted, setMounted] = useState(open)
  const [phase, setPhase] = useState<BottomSheetPhase>("opening")
  const [prevOpen, setPrevOpen] = useState(open)
  const onClosedRef = useRef(props.onClosed)
  useLayoutEffect(() => {
    onClosedRef.current = props.onClosed
  })

  // `open` drives the phases: opening (350 ms) -> open; closing (200 ms) -> unmounted.
  if (open !== prevOpen) {
    setPrevOpen(open)
    if (open) {
      setMounted(true)
      setPhase("opening")
    } else if (mounted) {
      setPhase("closing")
    }
  }

  useEffect(() => {
    if (!mounted || phase === "open") return
    const reduced = prefersReducedMotion()
    if (phase === "opening") {
      const t = setTimeout(() => setPhase("open"), reduced ? 0 : BOTTOM_SHEET_OPEN_MS)
      return () => clearTimeout(t)
    }
    const t = setTimeout(
      () => {
        setMounted(false)
        setPhase("opening")
        onClosedRef.current?.()
      },
      reduced ? 0 : BOTTOM_SHEET_CLOSE_MS,
    )
    return () => clearTimeout(t)
  }, [mounted, phase])

  // Stack membership, focus in on mount, focus back on unmount, scroll lock.
  useLayoutEffect(() => {
    if (!mounted) return
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const unlock = lockScroll()
    const panel = panelRef.current
    if (panel) {
      const target = initialFocusRef?.current ?? panel
      target.focus({ preventScroll: true })
    }
    const onFocusIn = (event: FocusEvent) => {
      const p = panelRef.current
      const target = event.target
      if (!p || !(target instanceof Element)) return
      // focus may move into another sheet (one nested in this one); anywhere else it comes back
      if (!target.closest("[data-wk-sheet]")) {
        p.focus({ preventScroll: true })
      }
    }
    document.addEventListener("focusin", onFocusIn)
    return () => {
      document.removeEventListener("focusin", onFocusIn)
      unlock()
      if (previous && previous.isConnected) previous.focus({ preventScroll: true })
    }
  }, [mounted, initialFocusRef])

  if (!mounted || typeof document === "undefined") return null

  const requestClose = () => {
    if (phase !== "closing") onClose()
  }

  // React events bubble through portals: the innermost sheet sees keys first and stops them.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      event.stopPropagation()
      if (closeOnEscape) {
        event.preventDefault()
        requestClose()
      }
      return
    }
    if (event.key !== "Tab") return
    const panel = panelRef.current
    if (!panel) return
    const items = tabbables(panel)
    event.stopPropagation()
    if (items.length === 0) {
      event.preventDefault()
      panel.focus()
      return
    }
    const first = items[0]!
    const last = items[items.length - 1]!
    const active = document.activeElement
    if (event.shiftKey && (active === first || active === panel)) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && active === last) {
      event.preventDefault()
      first.focus()
    }
  }

  const setPanelOffset = (y: number, animate: boolean) => {
    const p = panelRef.current
    if (!p) return
    p.style.transition = animate ? `transform ${BOTTOM_SHEET_CLOSE_MS}ms var(--wk-ease-out)` : "none"
    p.style.transform = y > 0 ? `translate3d(0,${y}px,0)` : ""
  }

  const onGripPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!swipeToClose || phase === "closing" || (event.target instanceof Element && event.target.closest("button"))) return
    drag.current = { pointerId: event.pointerId, startY: event.clientY, active: false, offset: 0, samples: [] }
  }
  const onGripPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current
    if (!d || d.pointerId !== event.pointerId) return
    const dy = event.clientY - d.startY
    if (!d.active) {
      if (dy < BOTTOM_SHEET_DRAG_ACTIVATION_PX) return
      d.active = true
      try {
        event.currentTarget.setPointerCapture?.(event.pointerId)
      } catch {
        // pointer already gone
      }
    }
    d.offset = Math.max(0, dy)
    d.samples.push({ t: performance.now(), y: d.offset })
    if (d.samples.length > 20) d.samples.shift()
    setPanelOffset(d.offset, false)
  }
  const onGripPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current
    if (!d || d.pointerId !== event.pointerId) return
    drag.current = null
    if (!d.active) return
    const last = d.samples[d.samples.length - 1]
    const first = d.samples.find((s) => last !== undefined && last.t - s.t <= 100)
    const velocity = last && first && last.t > first.t ? (last.y - first.y) / (last.t - first.t) : 0
    const height = panelRef.current?.offsetHeight ?? 0
    if (event.type === "pointerup" && (d.offset > height * BOTTOM_SHEET_DRAG_CLOSE_RATIO || velocity > BOTTOM_SHEET_DRAG_CLOSE_VELOCITY)) {
      const p = panelRef.current
      // the close animation starts where the finger left the sheet
      p?.style.setProperty("--wk-sheet-from", `${d.offset}px`)
      if (p) p.style.transition = ""
      requestClose()
    } else {
      setPanelOffset(0, true)
    }
  }

  const labelledBy = props["aria-labelledby"] ?? (title !== undefined && title !== null ? titleId : undefined)
  const style = {
    "--wk-duration-sheet-open": `${BOTTOM_SHEET_OPEN_MS}ms`,
    "--wk-duration-sheet-close": `${BOTTOM_SHEET_CLOSE_MS}ms`,
  } as CSSProperties

  return createPortal(
    <div className={styles.root} data-state={phase} style={style}>
      <div className={styles.backdrop} aria-hidden="true" data-testid="bottom-sheet-backdrop" onClick={closeOnBackdrop ? requestClose : undefined} />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-label={labelledBy ? undefined : props["aria-label"]}
        aria-labelledby={labelledBy}
        aria-describedby={props["aria-describedby"]}
        tabIndex={-1}
        className={cx(styles.panel, props.className)}
        data-state={phase}
        data-wk-sheet=""
        onKeyDown={onKeyDown}
      >
        <div
          className={styles.grip}
          data-testid="bottom-sheet-grip"
          onPointerDown={onGripPointerDown}
          onPointerMove={onGripPointerMove}
          onPointerUp={onGripPointerEnd}
          onPointerCancel={onGripPointerEnd}
        >
          {handle && <div className={styles.handle} aria-hidden="true" />}
          {(title !== undefined && title !== null) || closeLabel ? (
            <div className={styles.header}>
              <h2 id={titleId} className={styles.title}>
                {title}
              </h2>
              {closeLabel && (
                <IconButton aria-label={closeLabel} look="secondary" size="s" onClick={requestClose}>
                  <CloseIcon />
                </IconButton>
              )}
            </div>
          ) : null}
        </div>
        <div className={styles.content}>{props.children}</div>
        {footer !== undefined && footer !== null && <div className={styles.footer}>{footer}</div>}
      </div>
    </div>,
    props.container ?? document.body,
  )
}
