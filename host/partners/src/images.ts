/**
 * Image checks for uploads: the 5 MiB limit and the magic bytes of the three formats Sumsub's
 * sandbox accepts here (JPEG, PNG, WebP), which must agree with the declared Content-Type.
 */

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024

export type ImageType = "image/jpeg" | "image/png" | "image/webp"

export const IMAGE_TYPES: ReadonlyArray<ImageType> = ["image/jpeg", "image/png", "image/webp"]

export const EXTENSIONS: Readonly<Record<ImageType, string>> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" }

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>, at = 0): boolean =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b)

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0))

/** The format the bytes are in, from their signature, or undefined. */
export const sniffImage = (bytes: Uint8Array): ImageType | undefined => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg"
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png"
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp"
  return undefined
}

/** The media type of a Content-Type header value, without parameters, lower case. */
export const mediaType = (contentType: string | undefined): string => (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
