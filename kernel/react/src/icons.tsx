import type { ReactNode } from "react"

/** The kit's icon set: names used by manifests (tabs, settings entries, main-screen slots). 24×24, currentColor. */
const paths: Record<string, ReactNode> = {
  wallet: (
    <path d="M4 7.5A2.5 2.5 0 0 1 6.5 5h11A1.5 1.5 0 0 1 19 6.5V8h.5A1.5 1.5 0 0 1 21 9.5v8a1.5 1.5 0 0 1-1.5 1.5h-13A2.5 2.5 0 0 1 4 16.5v-9Zm2 0c0 .3.2.5.5.5H17V7H6.5a.5.5 0 0 0-.5.5Zm11 5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3Z" />
  ),
  globe: (
    <path d="M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm6.9 8h-3a14 14 0 0 0-1.2-5.3A7 7 0 0 1 18.9 11ZM12 5c.8 1 1.7 3 1.9 6h-3.8C10.3 8 11.2 6 12 5Zm-2.7.7A14 14 0 0 0 8.1 11h-3a7 7 0 0 1 4.2-5.3ZM5.1 13h3a14 14 0 0 0 1.2 5.3A7 7 0 0 1 5.1 13Zm6.9 6c-.8-1-1.7-3-1.9-6h3.8c-.2 3-1.1 5-1.9 6Zm2.7-.7a14 14 0 0 0 1.2-5.3h3a7 7 0 0 1-4.2 5.3Z" />
  ),
  currency: (
    <path d="M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm1 14.9V19h-2v-1.1c-1.6-.3-2.8-1.3-3-2.9h2c.2.7.9 1.2 2 1.2 1.3 0 2-.6 2-1.3 0-.8-.6-1.1-2.3-1.5-2-.4-3.4-1.1-3.4-3 0-1.4 1.1-2.5 2.7-2.8V6.5h2v1.1c1.6.3 2.5 1.4 2.7 2.7h-2c-.2-.7-.8-1.1-1.7-1.1-1.1 0-1.7.5-1.7 1.1 0 .7.7 1 2.3 1.4 2.1.5 3.4 1.2 3.4 3.1 0 1.5-1.1 2.6-3 3.1Z" />
  ),
  settings: (
    <path d="M13.7 3h-3.4l-.5 2.4a7 7 0 0 0-1.6.9L5.9 5.5 4.2 8.5l1.8 1.6a7 7 0 0 0 0 1.8L4.2 13.5l1.7 3 2.3-.8c.5.4 1 .7 1.6.9l.5 2.4h3.4l.5-2.4c.6-.2 1.1-.5 1.6-.9l2.3.8 1.7-3-1.8-1.6a7 7 0 0 0 0-1.8l1.8-1.6-1.7-3-2.3.8a7 7 0 0 0-1.6-.9L13.7 3ZM12 9a3 3 0 1 1 0 6 3 3 0 0 1 0-6Z" />
  ),
  qr: (
    <path d="M4 4h6v6H4V4Zm2 2v2h2V6H6Zm8-2h6v6h-6V4Zm2 2v2h2V6h-2ZM4 14h6v6H4v-6Zm2 2v2h2v-2H6Zm8-2h2v2h-2v-2Zm2 2h2v2h-2v-2Zm2-2h2v2h-2v-2Zm-4 4h2v2h-2v-2Zm4 0h2v2h-2v-2Z" />
  ),
  check: <path d="M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6L20.1 8.4 18.7 7 9.5 16.2Z" />,
  search: <path d="M10.5 4a6.5 6.5 0 0 1 5.2 10.4l4.4 4.4-1.4 1.4-4.4-4.4A6.5 6.5 0 1 1 10.5 4Zm0 2a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9Z" />,
  ton: <path d="M12 3 3.5 7.5 12 21l8.5-13.5L12 3Zm-1 3.2v11.1L6.3 8.4 11 6.2Zm2 0 4.7 2.2-4.7 8.9V6.2Z" />,
  // Wallet main's action glyphs (manifests' `main.actions[].icon`).
  receive: <path d="M11 4h2v11.2l4.6-4.6 1.4 1.4-7 7-7-7 1.4-1.4 4.6 4.6V4Z" />,
  send: <path d="M11 20h2V8.8l4.6 4.6 1.4-1.4-7-7-7 7 1.4 1.4L11 8.8V20Z" />,
  exchange: <path d="M7 4 3 8l4 4V9h9V7H7V4Zm10 8v3H8v2h9v3l4-4-4-4Z" />,
  buy: <path d="M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6V5Z" />,
  alert: <path d="M12 3 2 20h20L12 3Zm-1 6h2v6h-2V9Zm0 8h2v2h-2v-2Z" />,
  lock: <path fillRule="evenodd" d="M12 2a5 5 0 0 0-5 5v3H5v11h14V10h-2V7a5 5 0 0 0-5-5Zm3 8V7a3 3 0 0 0-6 0v3h6Zm-4 4h2v4h-2v-4Z" />,
}

export const iconNames = Object.keys(paths)

export function Icon({ name, size = 24, label }: { readonly name: string; readonly size?: number; readonly label?: string }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="currentColor"
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      {paths[name] ?? paths.settings}
    </svg>
  )
}
