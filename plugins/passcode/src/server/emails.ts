/** The texts of the emails the plugin sends (English, Russian; other languages get English). */
import type { EmailCodeReason } from "../api.ts"

type Purpose = EmailCodeReason | "security-challenge"

const subjects: Record<"en" | "ru", Record<Purpose, string>> = {
  en: {
    "get-recovery-key": "Your code to get the recovery key",
    "change-passcode": "Your code to reset the passcode",
    "change-email": "Your code to change the recovery email",
    "confirm-email": "Confirm your recovery email",
    "security-challenge": "Your code to confirm the operation",
  },
  ru: {
    "get-recovery-key": "Код для получения ключа восстановления",
    "change-passcode": "Код для сброса код-пароля",
    "change-email": "Код для смены почты восстановления",
    "confirm-email": "Подтвердите почту восстановления",
    "security-challenge": "Код для подтверждения операции",
  },
}

export const emailCodeMessage = (purpose: Purpose, language: string, code: string, ttlMinutes: number) => {
  const lang = language.toLowerCase().startsWith("ru") ? "ru" : "en"
  const subject = subjects[lang][purpose]
  const body =
    lang === "ru"
      ? `Ваш код: ${code}\n\nКод действует ${ttlMinutes} мин. Никому его не сообщайте. Если вы не запрашивали код, просто проигнорируйте это письмо.`
      : `Your code: ${code}\n\nIt is valid for ${ttlMinutes} minutes. Never share it with anyone. If you did not ask for it, ignore this email.`
  return { subject, body }
}
