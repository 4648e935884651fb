/** The settings plugin's query keys (decision 0320): one place, so reads and updates agree. */
export const settingsKeys = {
  all: ["settings"] as const,
  /** Every notification type with whether it is on (custody's notification settings). */
  notifications: () => ["settings", "notifications"] as const,
}
