import { useEffect, useLayoutEffect, useReducer, useRef } from "react"
import type { BottomButtonParams } from "@wallet/kernel"
import { cutBottomButtonText } from "./ui/bottomButtonText.ts"
import { useKernel } from "./context.tsx"
import { holdTabBarHidden } from "./chrome.ts"

export type BottomButtonLook = "confirm" | "destructive" | "secondary" | "custom"

export interface BottomButtonProps {
  readonly text: string
  readonly onClick: () => void
  readonly disabled?: boolean
  readonly progress?: boolean
  readonly look?: BottomButtonLook
  /** With look "custom". */
  readonly color?: string
  readonly textColor?: string
}

const lookColors = (look: BottomButtonLook, theme: Readonly<Record<string, string>>, props: BottomButtonProps) => {
  switch (look) {
    case "destructive":
      return { color: theme.destructive_text_color ?? "#e53935", textColor: "#ffffff" }
    case "secondary":
      return { color: theme.secondary_bg_color ?? "#efeff4", textColor: theme.button_color ?? "#2481cc" }
    case "custom":
      return { color: props.color, textColor: props.textColor }
    default:
      return { color: theme.button_color, textColor: theme.button_text_color }
  }
}

function useBottomButton(kind: "mainButton" | "secondaryButton", props: BottomButtonProps) {
  const { telegram } = useKernel()
  // A press acts on what this render says (handler, disabled, progress). Kept current in a layout effect:
  // Preact (decision 0011) runs passive effects a frame later, and a press in between called the previous
  // render's handler (a corrected word was checked as the wrong one it replaced).
  const latest = useRef(props)
  useLayoutEffect(() => {
    latest.current = props
  })
  const button = telegram[kind]
  useEffect(
    () =>
      button.onClick(() => {
        const current = latest.current
        if (!current.disabled && !current.progress) current.onClick()
      }),
    [button],
  )
  const look = props.look ?? (kind === "mainButton" ? "confirm" : "secondary")
  // The colours come from the theme: a theme change re-renders, so the button follows it.
  const [, themeChanged] = useReducer((n: number) => n + 1, 0)
  useEffect(() => telegram.theme.onChange(themeChanged), [telegram])
  const colors = lookColors(look, telegram.theme.current(), props)
  const params: BottomButtonParams = {
    text: cutBottomButtonText(props.text),
    isVisible: true,
    isActive: !props.disabled,
    isProgressVisible: props.progress === true,
    ...(colors.color ? { color: colors.color } : {}),
    ...(colors.textColor ? { textColor: colors.textColor } : {}),
  }
  const key = JSON.stringify(params)
  useEffect(() => {
    button.setParams(JSON.parse(key) as BottomButtonParams)
  }, [button, key])
  useEffect(() => () => button.setParams({ text: "", isVisible: false, isActive: false, isProgressVisible: false }), [button])
  // Spec 1 §2: the tab bar hides while a main button is open.
  useEffect(() => (kind === "mainButton" ? holdTabBarHidden("mainButton") : undefined), [kind])
}

/** Telegram's native main button while this component is mounted (text cut to 64 characters). */
export function MainButton(props: BottomButtonProps) {
  useBottomButton("mainButton", props)
  return null
}

/** Telegram's native secondary button while mounted. */
export function SecondaryButton(props: BottomButtonProps) {
  useBottomButton("secondaryButton", props)
  return null
}
