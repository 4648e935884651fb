/**
 * A QR matrix as one SVG path: a unit square per dark module, merged along rows, so the code
 * renders crisply at any size in the theme's colours without a canvas (and without innerHTML).
 */
export function qrPath(modules: ReadonlyArray<ReadonlyArray<boolean>>): string {
  const parts: string[] = []
  modules.forEach((row, y) => {
    let x = 0
    while (x < row.length) {
      if (!row[x]) {
        x++
        continue
      }
      const start = x
      while (x < row.length && row[x]) x++
      parts.push(`M${start} ${y}h${x - start}v1h-${x - start}z`)
    }
  })
  return parts.join("")
}
