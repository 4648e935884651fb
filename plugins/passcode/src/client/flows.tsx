/**
 * The passcode flows (spec 3 §4.3, §4.4): create, verify, change, reset, recovery email, email
 * challenge. One file per flow under flows/; this module is their entry.
 */
export { CreateFlow } from "./flows/create.tsx"
export { ChangeFlow, ResetFlow } from "./flows/change.tsx"
export { CheckPasscode, type VerifiedProof } from "./flows/check.tsx"
export { EmailChallengeFlow, Loading, RecoveryEmailFlow } from "./flows/email.tsx"
