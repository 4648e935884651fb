import { useState, type CSSProperties } from "react"
import styles from "./Avatar.module.css"
import { cx } from "./utils.ts"

// Telegram's peer colours (top, bottom of the gradient).
const PALETTE: ReadonlyArray<readonly [string, string]> = [
  ["#ff885e", "#ff516a"],
  ["#ffcd6a", "#ffa85c"],
  ["#82b1ff", "#665fff"],
  ["#a0de7e", "#54cb68"],
  ["#53edd6", "#28c9b7"],
  ["#72d5fd", "#2a9ef1"],
  ["#e0a2f3", "#d669ed"],
]

/** Up to two initials from a name: first letters of the first two words (code-point safe). */
const firstLetter = (w: string | undefined) => (w ? (Array.from(w)[0] ?? "") : "")

export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean)
  return (firstLetter(words[0]) + firstLetter(words[1])).toLocaleUpperCase()
}

function colorIndex(seed: string): number {
  let h = 0
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) | 0
  return Math.abs(h) % PALETTE.length
}

export interface AvatarProps {
  /** Image URL; on load error the initials are shown. */
  src?: string
  /** Used for the initials and the colour. */
  name?: string
  /** Explicit initials (overrides `name`). */
  initials?: string
  /** Stable seed for the colour (e.g. a user id); defaults to the name. */
  colorSeed?: string | number
  size?: number
  shape?: "circle" | "rounded"
  /** Accessible name; without it the avatar is decorative (aria-hidden), as next to a visible name. */
  alt?: string
  className?: string
}

export function Avatar({ src, name = "", initials, colorSeed, size = 40, shape = "circle", alt, className }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null)
  const showImage = src !== undefined && src !== "" && failed !== src
  const [top, bottom] = PALETTE[colorIndex(String(colorSeed ?? name))] ?? PALETTE[0]!
  const style: CSSProperties = {
    width: size,
    height: size,
    fontSize: Math.round(size * 0.4),
    background: showImage ? "var(--wk-color-skeleton)" : `linear-gradient(${top}, ${bottom})`,
  }
  const a11y = alt ? { role: "img", "aria-label": alt } : { "aria-hidden": true }
  return (
    <span {...a11y} className={cx(styles.root, shape === "rounded" && styles.rounded, className)} style={style}>
      {showImage ? (
        <img className={styles.image} src={src} alt="" draggable={false} loading="lazy" decoding="async" onError={() => setFailed(src)} />
      ) : (
        (initials ?? initialsOf(name))
      )}
    </span>
  )
}
