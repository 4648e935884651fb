/** Spec section 2 "Tab bar and main screens". */
export type PlatformStyle = "apple" | "material"

export const TAB_BAR_HEIGHT_APPLE = 49
export const TAB_BAR_HEIGHT_MATERIAL = 64
/** Added when the strip above the bar is shown (e.g. active P2P orders). */
export const TAB_BAR_STRIP_HEIGHT = 44
/** The strip is compact when the viewport is narrower than this. */
export const TAB_BAR_COMPACT_WIDTH_APPLE = 375
export const TAB_BAR_COMPACT_WIDTH_MATERIAL = 360

/** Height of the bar (and strip) in px, without the bottom safe-area inset. */
export function tabBarHeight({ platformStyle, withStrip = false }: { platformStyle: PlatformStyle; withStrip?: boolean }): number {
  return (platformStyle === "material" ? TAB_BAR_HEIGHT_MATERIAL : TAB_BAR_HEIGHT_APPLE) + (withStrip ? TAB_BAR_STRIP_HEIGHT : 0)
}

export function isCompactStrip(platformStyle: PlatformStyle, viewportWidth: number): boolean {
  return viewportWidth < (platformStyle === "material" ? TAB_BAR_COMPACT_WIDTH_MATERIAL : TAB_BAR_COMPACT_WIDTH_APPLE)
}
