import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from "react";
import { createPortal } from "react-dom";
import styles from "./BottomSheet.module.css";
import { IconButton } from "./IconButton.tsx";
import { cx, prefersReducedMotion, tabbables } from "./utils.ts";

/** Spec section 2: "Bottom sheets animate 350 ms and 200 ms" (open, close). */
export const BOTTOM_SHEET_OPEN_MS = 350;
export const BOTTOM_SHEET_CLOSE_MS = 200;

export type BottomSheetPhase = "opening" | "open" | "closing";

export interface BottomSheetProps {
  open: boolean;
  /** Called on Escape, backdrop tap and the close button; the parent sets `open` to false. */
  onClose: () => void;
  /** Called once the close animation has finished and the sheet is unmounted. */
  onClosed?: () => void;
  /** Visible title; it also labels the dialog. */
  title?: ReactNode;
  /** Accessible name when there is no visible title. */
  "aria-label"?: string;
  "aria-labelledby"?: string;
  "aria-describedby"?: string;
  /** Accessible name of the close (×) button; without it no close button is rendered. */
  closeLabel?: string;
  closeOnBackdrop?: boolean;
  closeOnEscape?: boolean;
  /**
   * Element to focus on open. Default: the dialog itself, so no focus ring flashes and no input pops
   * the keyboard up on touch; Tab then enters the content.
   */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Pinned under the scrolling content (buttons). */
  footer?: ReactNode;
  /** Drag handle on top (decorative); default true. */
  handle?: boolean;
  children?: ReactNode;
  className?: string;
  /** Portal target; default document.body. */
  container?: Element | null;
}

let scrollLocks = 0;
let savedOverflow = "";

function lockScroll(): () => void {
  if (scrollLocks++ === 0) {
    savedOverflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
  }
  return () => {
    if (--scrollLocks === 0) document.body.style.overflow = savedOverflow;
  };
}

function CloseIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
      <path d="M1 1l12 12M13 1L1 13" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** A modal dialog sliding up from the bottom, rendered in a portal. */
export function BottomSheet(props: BottomSheetProps) {
  const { open, onClose, title, closeLabel, closeOnBackdrop = true, closeOnEscape = true, initialFocusRef, footer, handle = true } =
    props;
  const id = useId();
  const titleId = `${id}-title`;
  const panelRef = useRef<HTMLDivElement>(null);
  const [mounted, setMounted] = useState(open);
  const [phase, setPhase] = useState<BottomSheetPhase>("opening");
  const [prevOpen, setPrevOpen] = useState(open);
  const onClosedRef = useRef(props.onClosed);
  useLayoutEffect(() => {
    onClosedRef.current = props.onClosed;
  });

  // `open` drives the phases: opening (350 ms) -> open; closing (200 ms) -> unmounted.
  if (open !== prevOpen) {
    setPrevOpen(open);
    if (open) {
      setMounted(true);
      setPhase("opening");
    } else if (mounted) {
      setPhase("closing");
    }
  }

  useEffect(() => {
    if (!mounted || phase === "open") return;
    const reduced = prefersReducedMotion();
    if (phase === "opening") {
      const t = setTimeout(() => setPhase("open"), reduced ? 0 : BOTTOM_SHEET_OPEN_MS);
      return () => clearTimeout(t);
    }
    const t = setTimeout(() => {
      setMounted(false);
      setPhase("opening");
      onClosedRef.current?.();
    }, reduced ? 0 : BOTTOM_SHEET_CLOSE_MS);
    return () => clearTimeout(t);
  }, [mounted, phase]);

  // Stack membership, focus in on mount, focus back on unmount, scroll lock.
  useLayoutEffect(() => {
    if (!mounted) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const unlock = lockScroll();
    const panel = panelRef.current;
    if (panel) {
      const target = initialFocusRef?.current ?? panel;
      target.focus({ preventScroll: true });
    }
    const onFocusIn = (event: FocusEvent) => {
      const p = panelRef.current;
      const target = event.target;
      if (!p || !(target instanceof Element)) return;
      // focus may move into another sheet (one nested in this one); anywhere else it comes back
      if (!target.closest("[data-wk-sheet]")) {
        p.focus({ preventScroll: true });
      }
    };
    document.addEventListener("focusin", onFocusIn);
    return () => {
      document.removeEventListener("focusin", onFocusIn);
      unlock();
      if (previous && previous.isConnected) previous.focus({ preventScroll: true });
    };
  }, [mounted, initialFocusRef]);

  if (!mounted || typeof document === "undefined") return null;

  const requestClose = () => {
    if (phase !== "closing") onClose();
  };

  // React events bubble through portals: the innermost sheet sees keys first and stops them.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      if (closeOnEscape) {
        event.preventDefault();
        requestClose();
      }
      return;
    }
    if (event.key !== "Tab") return;
    const panel = panelRef.current;
    if (!panel) return;
    const items = tabbables(panel);
    event.stopPropagation();
    if (items.length === 0) {
      event.preventDefault();
      panel.focus();
      return;
    }
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panel)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const labelledBy = props["aria-labelledby"] ?? (title !== undefined && title !== null ? titleId : undefined);
  const style = {
    "--wk-duration-sheet-open": `${BOTTOM_SHEET_OPEN_MS}ms`,
    "--wk-duration-sheet-close": `${BOTTOM_SHEET_CLOSE_MS}ms`,
  } as CSSProperties;

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
        <div className={styles.content}>{props.children}</div>
        {footer !== undefined && footer !== null && <div className={styles.footer}>{footer}</div>}
      </div>
    </div>,
    props.container ?? document.body,
  );
}
