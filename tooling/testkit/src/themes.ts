/** Telegram-like theme params for the fake client (snake_case as Telegram sends them). */
export const THEMES = {
  light: {
    bg_color: "#ffffff",
    text_color: "#000000",
    hint_color: "#707579",
    link_color: "#2481cc",
    button_color: "#2481cc",
    button_text_color: "#ffffff",
    secondary_bg_color: "#efeff4",
    header_bg_color: "#ffffff",
    bottom_bar_bg_color: "#ffffff",
    accent_text_color: "#2481cc",
    section_bg_color: "#ffffff",
    section_header_text_color: "#6d6d72",
    section_separator_color: "#e7e7e7",
    subtitle_text_color: "#707579",
    destructive_text_color: "#e53935",
  },
  dark: {
    bg_color: "#17212b",
    text_color: "#f5f5f5",
    hint_color: "#708499",
    link_color: "#6ab3f3",
    button_color: "#5288c1",
    button_text_color: "#ffffff",
    secondary_bg_color: "#232e3c",
    header_bg_color: "#17212b",
    bottom_bar_bg_color: "#17212b",
    accent_text_color: "#6ab2f2",
    section_bg_color: "#17212b",
    section_header_text_color: "#6ab3f3",
    section_separator_color: "#111921",
    subtitle_text_color: "#708499",
    destructive_text_color: "#ec3942",
  },
} as const

export type ThemeName = keyof typeof THEMES
