import { Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { readUpTo, sniffFileType } from "./sniff.ts"

const bytes = (...values: ReadonlyArray<number>) => new Uint8Array(values)

describe("sniffFileType", () => {
  it("reads JPEG, PNG, WebP and PDF from their first bytes, and nothing else", () => {
    expect(sniffFileType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg")
    expect(sniffFileType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png")
    expect(sniffFileType(new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "))).toBe("image/webp")
    expect(sniffFileType(new TextEncoder().encode("%PDF-1.7"))).toBe("application/pdf")
    // A RIFF that is not WebP (a WAV), text, a truncated PNG, nothing.
    expect(sniffFileType(new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WAVEfmt "))).toBeUndefined()
    expect(sniffFileType(new TextEncoder().encode("<svg xmlns="))).toBeUndefined()
    expect(sniffFileType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeUndefined()
    expect(sniffFileType(bytes())).toBeUndefined()
  })
})

describe("readUpTo", () => {
  const chunks = (...sizes: ReadonlyArray<number>) => Stream.fromIterable(sizes.map((size, index) => new Uint8Array(size).fill(index + 1)))

  it("joins the chunks of a body within the limit (the limit itself included)", async () => {
    const read = await Effect.runPromise(readUpTo(chunks(3, 2), 5))
    expect(Array.from(read!)).toEqual([1, 1, 1, 2, 2])
  })

  it("is undefined for a body past the limit, and for a stream that failed (the framework's own cap)", async () => {
    expect(await Effect.runPromise(readUpTo(chunks(3, 3), 5))).toBeUndefined()
    expect(await Effect.runPromise(readUpTo(Stream.concat(chunks(1), Stream.fail("too large")), 5))).toBeUndefined()
  })
})
