/** Opaque bearer secrets: 256 random bits, stored only as their SHA-256. */
import { createHash, randomBytes, randomUUID } from "node:crypto"

export const newToken = (): string => randomBytes(32).toString("base64url")
export const newSessionId = (): string => randomUUID()
/** High-entropy tokens need no slow hash; SHA-256 keeps the lookup one index probe. */
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex")
