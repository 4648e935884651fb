/**
 * What the modules that take users' files share: the type read from the file's first bytes (a
 * declared content type is never trusted) and a request body read up to a limit.
 */
import { Effect, Stream } from "effect"

/** The types `sniffFileType` knows. */
export type SniffedType = "image/jpeg" | "image/png" | "image/webp" | "application/pdf"

/** The file's type from its first bytes: JPEG, PNG, WebP or PDF; undefined for anything else. */
export const sniffFileType = (bytes: Uint8Array): SniffedType | undefined => {
  const at = (offset: number, ...values: ReadonlyArray<number>) => values.every((value, index) => bytes[offset + index] === value)
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg"
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png"
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp"
  if (at(0, 0x25, 0x50, 0x44, 0x46, 0x2d)) return "application/pdf"
  return undefined
}

/**
 * A streamed body's bytes, or undefined when it is longer than `maxBytes`: reading stops there, and
 * a stream the framework ended (an endpoint's own `maxBytes`, a dropped connection) counts as too long.
 */
export const readUpTo = (body: Stream.Stream<Uint8Array, unknown>, maxBytes: number): Effect.Effect<Uint8Array | undefined> => {
  const chunks: Array<Uint8Array> = []
  let size = 0
  return Stream.runForEachWhile(body, (chunk) =>
    Effect.sync(() => {
      size += chunk.byteLength
      if (size > maxBytes) return false
      chunks.push(chunk)
      return true
    }),
  ).pipe(
    Effect.map(() => (size > maxBytes ? undefined : Buffer.concat(chunks))),
    Effect.orElseSucceed(() => undefined),
  )
}
