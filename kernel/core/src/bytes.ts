/** Byte helpers every package shares (decision 0130): hex and base64 without Node's Buffer. */

type Bytes = Uint8Array<ArrayBuffer>

export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/** Throws on an odd length or a non-hex character. */
export const fromHex = (hex: string): Bytes => {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new Error("not hex")
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

/** Standard base64 with padding. */
export const toBase64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!)
  return btoa(binary)
}

/** Base64url without padding (tokens, URLs). */
export const toBase64Url = (bytes: Uint8Array): string => toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")

/** Base64 or base64url, padding optional; throws on anything else. */
export const fromBase64Url = (text: string): Bytes => {
  if (!/^[A-Za-z0-9_+/-]*=*$/.test(text)) throw new Error("not base64url")
  const binary = atob(
    text
      .replaceAll("-", "+")
      .replaceAll("_", "/")
      .replace(/=+$/, "")
      .padEnd(Math.ceil(text.replace(/=+$/, "").length / 4) * 4, "="),
  )
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}
