import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from "react"
import { createPortal } from "react-dom"
import styles from "./Snackbar.module.css"
import { SNACKBAR_AUTO_HIDE_MS, SNACKBAR_HIDE_MS, SNACKBAR_SWIPE_ACTIVATION_PX, SNACKBAR_SWIPE_RETURN_MS, shouldDismissSwipe } from "./snackbarConstants.ts"
import { cx } from "./utils.ts"

export interface SnackbarAction {
  label: string
  onClick: () => void
  /** Keep the snackbar after the action (default: the action dismisses it). */
  keepOpen?: boolean
}

export interface SnackbarOptions {
  /** Showing an id that is already on screen shakes that snackbar instead of adding one. */
  id?: string
  text: ReactNode
  description?: ReactNode
  icon?: ReactNode
  action?: SnackbarAction
  /** Auto-hide delay in ms; default 6000; `Infinity` keeps it until dismissed. */
  duration?: number
  /** Survives dismissOnNavigation(). */
  persistAcrossNavigation?: boolean
  /** Makes the text area a button (e.g. tap to copy error details). */
  onClick?: () => void
  /** Called when the snackbar is gone (after the hiding state). */
  onHidden?: () => void
}

export type SnackbarState = "shown" | "hiding"

interface Item extends SnackbarOptions {
  id: string
  /** Unique per show: a re-shown id gets a fresh view (timer, drag state). */
  key: number
  state: SnackbarState
  /** Incremented on each duplicate show: retriggers the shake and restarts the timer. */
  shakes: number
  /** Direction a swipe threw it out, if it was swiped. */
  swipedOut?: { axis: "x" | "y"; sign: number }
}

export interface SnackbarApi {
  /** Shows a snackbar and returns its id. */
  show: (options: SnackbarOptions) => string
  dismiss: (id: string) => void
  dismissAll: () => void
  /** Call on route change: dismisses all but the persistAcrossNavigation ones. */
  dismissOnNavigation: () => void
}

const SnackbarContext = createContext<SnackbarApi | null>(null)

export function useSnackbar(): SnackbarApi {
  const api = useContext(SnackbarContext)
  if (!api) throw new Error("useSnackbar() needs a <SnackbarProvider> above it")
  return api
}

export interface SnackbarProviderProps {
  children?: ReactNode
  /** Called when a snackbar with the id of a shown one is requested (the app fires an error haptic). */
  onDuplicate?: (options: SnackbarOptions & { id: string }) => void
  /** How many can be on screen; extra ones push the oldest into hiding. Default 1. */
  maxVisible?: number
  placement?: "top" | "bottom"
  /** Distance from the screen edge (CSS length or px); default above the tab bar and safe area. */
  offset?: number | string
  /** Portal target; default document.body. */
  container?: Element | null
}

let autoId = 0

export function SnackbarProvider({ children, onDuplicate, maxVisible = 1, placement = "bottom", offset, container }: SnackbarProviderProps) {
  const [items, setItems] = useState<Item[]>([])
  const itemsRef = useRef<Item[]>([])
  const removal = useRef(new Map<string, ReturnType<typeof setTimeout>>())
  const onDuplicateRef = useRef(onDuplicate)
  const maxRef = useRef(maxVisible)
  useLayoutEffect(() => {
    onDuplicateRef.current = onDuplicate
    maxRef.current = maxVisible
  })

  const commit = useCallback((next: Item[]) => {
    itemsRef.current = next
    setItems(next)
  }, [])

  const scheduleRemoval = useCallback(
    (id: string) => {
      const timers = removal.current
      const old = timers.get(id)
      if (old) clearTimeout(old)
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id)
          const gone = itemsRef.current.find((i) => i.id === id && i.state === "hiding")
          if (!gone) return
          commit(itemsRef.current.filter((i) => i !== gone))
          gone.onHidden?.()
        }, SNACKBAR_HIDE_MS),
      )
    },
    [commit],
  )

  const hide = useCallback(
    (predicate: (item: Item) => boolean, swipedOut?: Item["swipedOut"]) => {
      let changed = false
      const next = itemsRef.current.map((item) => {
        if (item.state !== "shown" || !predicate(item)) return item
        changed = true
        scheduleRemoval(item.id)
        return { ...item, state: "hiding" as const, swipedOut }
      })
      if (changed) commit(next)
    },
    [commit, scheduleRemoval],
  )

  const api = useMemo<SnackbarApi>(() => {
    const show = (options: SnackbarOptions) => {
      const id = options.id ?? `wk-snackbar-${++autoId}`
      const current = itemsRef.current.find((i) => i.id === id && i.state === "shown")
      if (current) {
        commit(itemsRef.current.map((i) => (i === current ? { ...i, shakes: i.shakes + 1 } : i)))
        onDuplicateRef.current?.({ ...options, id })
        return id
      }
      const pending = removal.current.get(id)
      if (pending) {
        clearTimeout(pending)
        removal.current.delete(id)
      }
      const rest = itemsRef.current.filter((i) => i.id !== id)
      const shown = rest.filter((i) => i.state === "shown")
      const overflow = new Set(shown.slice(0, Math.max(0, shown.length - Math.max(1, maxRef.current) + 1)))
      const next = rest.map((i) => {
        if (!overflow.has(i)) return i
        scheduleRemoval(i.id)
        return { ...i, state: "hiding" as const }
      })
      commit([...next, { ...options, id, key: ++autoId, state: "shown", shakes: 0 }])
      return id
    }
    return {
      show,
      dismiss: (id) => hide((i) => i.id === id),
      dismissAll: () => hide(() => true),
      dismissOnNavigation: () => hide((i) => !i.persistAcrossNavigation),
    }
  }, [commit, hide, scheduleRemoval])

  useEffect(() => {
    const timers = removal.current
    return () => {
      for (const t of timers.values()) clearTimeout(t)
      timers.clear()
    }
  }, [])

  const style = {
    "--wk-duration-snackbar-hide": `${SNACKBAR_HIDE_MS}ms`,
    ...(offset !== undefined ? { "--wk-snackbar-offset": typeof offset === "number" ? `${offset}px` : offset } : {}),
  } as CSSProperties

  const viewport = (
    <div className={styles.viewport} role="status" aria-live="polite" data-placement={placement} style={style}>
      {items.map((item) => (
        <SnackbarView key={item.key} item={item} placement={placement} onDismiss={(swipedOut) => hide((i) => i.id === item.id, swipedOut)} />
      ))}
    </div>
  )

  return (
    <SnackbarContext.Provider value={api}>
      {children}
      {typeof document === "undefined" ? null : createPortal(viewport, container ?? document.body)}
    </SnackbarContext.Provider>
  )
}

interface Drag {
  pointerId: number
  startX: number
  startY: number
  axis: "x" | "y" | null
  offset: number
  samples: Array<{ t: number; pos: number }>
}

const VELOCITY_WINDOW_MS = 100

function velocityOf(samples: Drag["samples"]): number {
  const last = samples[samples.length - 1]
  if (!last) return 0
  let first = last
  for (let i = samples.length - 2; i >= 0; i--) {
    const s = samples[i]!
    if (last.t - s.t > VELOCITY_WINDOW_MS) break
    first = s
  }
  const dt = last.t - first.t
  return dt > 0 ? (last.pos - first.pos) / dt : 0
}

function SnackbarView({ item, placement, onDismiss }: { item: Item; placement: "top" | "bottom"; onDismiss: (swipedOut?: Item["swipedOut"]) => void }) {
  const ref = useRef<HTMLDivElement>(null)
  const duration = item.duration ?? SNACKBAR_AUTO_HIDE_MS
  const remaining = useRef(duration)
  const timerShakes = useRef(item.shakes)
  const [pressed, setPressed] = useState(false)
  const [focused, setFocused] = useState(false)
  const [dragging, setDragging] = useState(false)
  const [returning, setReturning] = useState(false)
  const drag = useRef<Drag | null>(null)
  const suppressClick = useRef(false)
  const onDismissRef = useRef(onDismiss)
  useLayoutEffect(() => {
    onDismissRef.current = onDismiss
  })
  const paused = pressed || focused

  // Auto-hide timer: counts only while shown and not paused; a duplicate show restarts it.
  useEffect(() => {
    if (item.state !== "shown" || paused || !Number.isFinite(duration)) return
    if (timerShakes.current !== item.shakes) {
      timerShakes.current = item.shakes
      remaining.current = duration
    }
    const started = performance.now()
    const t = setTimeout(() => onDismissRef.current(), Math.max(0, remaining.current))
    return () => {
      clearTimeout(t)
      remaining.current = Math.max(0, remaining.current - (performance.now() - started))
    }
  }, [item.state, item.shakes, paused, duration])

  useEffect(() => {
    if (!returning) return
    const t = setTimeout(() => setReturning(false), SNACKBAR_SWIPE_RETURN_MS)
    return () => clearTimeout(t)
  }, [returning])

  const applyOffset = (axis: "x" | "y" | null, offset: number) => {
    const el = ref.current
    if (!el) return
    el.style.transform = axis === null || offset === 0 ? "" : axis === "x" ? `translate3d(${offset}px,0,0)` : `translate3d(0,${offset}px,0)`
  }

  const endDrag = (cancelled: boolean) => {
    const d = drag.current
    drag.current = null
    setPressed(false)
    setDragging(false)
    if (!d || d.axis === null) return
    suppressClick.current = true
    const el = ref.current
    const size = el ? (d.axis === "x" ? el.offsetWidth : el.offsetHeight) : 0
    const velocity = velocityOf(d.samples)
    if (!cancelled && shouldDismissSwipe({ offset: d.offset, velocity, size })) {
      const sign = Math.sign(d.offset)
      if (el) el.style.transform = d.axis === "x" ? `translate3d(${sign * 120}%,0,0)` : `translate3d(0,${sign * 120}%,0)`
      onDismissRef.current({ axis: d.axis, sign })
      return
    }
    setReturning(true)
    applyOffset(null, 0)
  }

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (item.state !== "shown" || (e.pointerType === "mouse" && e.button !== 0)) return
    suppressClick.current = false
    drag.current = {
      pointerId: e.pointerId,
      startX: e.clientX,
      startY: e.clientY,
      axis: null,
      offset: 0,
      samples: [],
    }
    setPressed(true)
  }

  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current
    if (!d || e.pointerId !== d.pointerId) return
    const dx = e.clientX - d.startX
    const dy = e.clientY - d.startY
    if (d.axis === null) {
      if (Math.max(Math.abs(dx), Math.abs(dy)) < SNACKBAR_SWIPE_ACTIVATION_PX) return
      d.axis = Math.abs(dx) >= Math.abs(dy) ? "x" : "y"
      setDragging(true)
      try {
        ref.current?.setPointerCapture?.(e.pointerId)
      } catch {
        // pointer already gone
      }
    }
    let offset = d.axis === "x" ? dx : dy
    if (d.axis === "y") {
      // vertical drags only go towards the screen edge; the other way barely moves
      const outward = placement === "bottom" ? 1 : -1
      if (Math.sign(offset) !== outward) offset = offset * 0.2
    }
    d.offset = offset
    d.samples.push({ t: performance.now(), pos: offset })
    if (d.samples.length > 20) d.samples.shift()
    applyOffset(d.axis, offset)
  }

  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (drag.current && e.pointerId === drag.current.pointerId) endDrag(false)
  }
  const onPointerCancel = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (drag.current && e.pointerId === drag.current.pointerId) endDrag(true)
  }

  const onClickCapture = (e: ReactMouseEvent) => {
    if (suppressClick.current) {
      suppressClick.current = false
      e.preventDefault()
      e.stopPropagation()
    }
  }

  // alternating between two identical keyframes restarts the CSS animation on every duplicate
  const shake = item.shakes > 0 ? (item.shakes % 2 ? "a" : "b") : undefined
  const body = (
    <>
      <span className={styles.text}>{item.text}</span>
      {item.description !== undefined && item.description !== null && <span className={styles.description}>{item.description}</span>}
    </>
  )

  return (
    <div
      ref={ref}
      className={cx(styles.snackbar)}
      data-state={item.state}
      data-shake={shake}
      data-dragging={dragging || undefined}
      data-returning={returning || undefined}
      data-swiped={item.swipedOut ? "" : undefined}
      data-paused={paused || undefined}
      style={returning ? { transitionDuration: `${SNACKBAR_SWIPE_RETURN_MS}ms` } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      onClickCapture={onClickCapture}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false)
      }}
    >
      {item.icon !== undefined && item.icon !== null && (
        <span className={styles.icon} aria-hidden="true">
          {item.icon}
        </span>
      )}
      {item.onClick ? (
        <button type="button" className={styles.body} onClick={item.onClick}>
          {body}
        </button>
      ) : (
        <div className={styles.body}>{body}</div>
      )}
      {item.action && (
        <button
          type="button"
          className={styles.action}
          onClick={() => {
            item.action?.onClick()
            if (!item.action?.keepOpen) onDismissRef.current()
          }}
        >
          {item.action.label}
        </button>
      )}
    </div>
  )
}
