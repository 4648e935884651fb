import { CellSkeleton, type CellSkeletonProps } from "./Cell.tsx"

/** Spec section 9: "assets list shows 3 skeleton rows by default". */
export const SKELETON_LIST_DEFAULT_ROWS = 3

export interface SkeletonListProps extends CellSkeletonProps {
  rows?: number
  /** Announced to assistive technology (i18n, e.g. "Loading assets"). */
  label?: string
}

/** A column of cell skeletons, announced once as a busy status region. */
export function SkeletonList({ rows = SKELETON_LIST_DEFAULT_ROWS, label, className, ...cell }: SkeletonListProps) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className={className}>
      {Array.from({ length: Math.max(0, rows) }, (_, i) => (
        <CellSkeleton key={i} {...cell} />
      ))}
    </div>
  )
}
