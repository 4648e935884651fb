/** What the TON side's QR scan accepts (spec 1 §2 top bar). */

/** `ton://transfer/<address>?...` or a bare address: the address; anything else undefined. */
export const scannedAddress = (text: string): string | undefined => {
  const trimmed = text.trim()
  const link = /^ton:\/\/transfer\/([^?#]+)/i.exec(trimmed)
  const candidate = link ? decodeURIComponent(link[1]!) : trimmed
  return /^([A-Za-z0-9_-]{48}|-?\d+:[0-9a-fA-F]{64})$/.test(candidate) ? candidate : undefined
}
