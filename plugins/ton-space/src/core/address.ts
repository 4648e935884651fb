/** Address rules of spec 2 §5 that need no TON library (the lazy `ton/` module parses and derives). */

/** Friendly (48 chars base64/base64url) or raw (`wc:64 hex`) TON address, by shape only. */
export const looksLikeAddress = (value: string): boolean => /^-?\d{1,3}:[0-9a-fA-F]{64}$/.test(value) || /^[A-Za-z0-9_+/-]{48}$/.test(value)

/** A `.ton` / `.t.me` style name to resolve through DNS (receiver by name). */
export const looksLikeDomain = (value: string): boolean => /^([a-z0-9-]+\.)+(ton|t\.me)$/i.test(value.trim())

/** Short address display (spec 2 §5: first 2, an ellipsis, last 4; 6 characters or fewer in full): the kernel's. */
export { shortAddress } from "@wallet/kernel"
