// @wallet/kernel-react/ui: the mini-app UI kit. Importing it loads the theme (tokens + reset).
// oxlint-disable-next-line import/no-unassigned-import
import "./theme.css"

// iOS WebKit applies :active (pressed cells and buttons) only when a touch listener exists.
if (typeof document !== "undefined") document.addEventListener("touchstart", () => undefined, { passive: true })

export { cx, prefersReducedMotion } from "./utils.ts"
export { VisuallyHidden } from "./VisuallyHidden.tsx"

export { List, Section, SectionHeader, SectionFooter } from "./List.tsx"
export type { SectionProps, SectionHeaderProps } from "./List.tsx"
export { Cell, CellSkeleton } from "./Cell.tsx"
export type { CellProps, CellSkeletonProps } from "./Cell.tsx"
export { Skeleton } from "./Skeleton.tsx"
export { LineChart } from "./LineChart.tsx"
export type { LineChartProps } from "./LineChart.tsx"
export type { SkeletonProps, SkeletonShape } from "./Skeleton.tsx"
export { SkeletonList, SKELETON_LIST_DEFAULT_ROWS } from "./SkeletonList.tsx"
export type { SkeletonListProps } from "./SkeletonList.tsx"

export { BottomSheet, BOTTOM_SHEET_OPEN_MS, BOTTOM_SHEET_CLOSE_MS } from "./BottomSheet.tsx"
export type { BottomSheetProps, BottomSheetPhase } from "./BottomSheet.tsx"

export { SnackbarProvider, useSnackbar } from "./Snackbar.tsx"
export type { SnackbarApi, SnackbarOptions, SnackbarAction, SnackbarProviderProps, SnackbarState } from "./Snackbar.tsx"
export {
  SNACKBAR_AUTO_HIDE_MS,
  SNACKBAR_HIDE_MS,
  SNACKBAR_SWIPE_ACTIVATION_PX,
  SNACKBAR_SWIPE_DISMISS_RATIO,
  SNACKBAR_SWIPE_VELOCITY,
  SNACKBAR_SWIPE_RETURN_MS,
  SNACKBAR_SHAKE_MS,
  shouldDismissSwipe,
} from "./snackbarConstants.ts"

export { AmountInput } from "./AmountInput.tsx"
export type { AmountInputProps } from "./AmountInput.tsx"
export { AMOUNT_MAX_INTEGER_DIGITS, sanitizeAmountInput, sanitizePastedAmount, amountToMinorUnits, minorUnitsToAmount, formatAmountForInput } from "./amount.ts"
export type { AmountRules } from "./amount.ts"

export { TextField, SearchInput } from "./TextField.tsx"
export type { TextFieldProps, SearchInputProps } from "./TextField.tsx"

export { TabBar } from "./TabBar.tsx"
export type { TabBarItem, TabBarProps, TabBarStripContext, TabBarTooltip } from "./TabBar.tsx"
export {
  TAB_BAR_HEIGHT_APPLE,
  TAB_BAR_HEIGHT_MATERIAL,
  TAB_BAR_STRIP_HEIGHT,
  TAB_BAR_COMPACT_WIDTH_APPLE,
  TAB_BAR_COMPACT_WIDTH_MATERIAL,
  tabBarHeight,
  isCompactStrip,
} from "./tabBarLayout.ts"
export type { PlatformStyle } from "./tabBarLayout.ts"

export { Button } from "./Button.tsx"
export type { ButtonProps, ButtonLook, ButtonSize } from "./Button.tsx"
export { IconButton } from "./IconButton.tsx"
export type { IconButtonProps } from "./IconButton.tsx"
export { Spinner } from "./Spinner.tsx"
export type { SpinnerProps, SpinnerSize } from "./Spinner.tsx"
export { Placeholder } from "./Placeholder.tsx"
export type { PlaceholderProps } from "./Placeholder.tsx"
export { Badge, Banner } from "./Badge.tsx"
export type { BadgeProps, BannerProps } from "./Badge.tsx"
export { Switch } from "./Switch.tsx"
export type { SwitchProps } from "./Switch.tsx"
export { SegmentedControl } from "./SegmentedControl.tsx"
export type { SegmentedControlProps, SegmentedControlItem } from "./SegmentedControl.tsx"
export { Avatar, initialsOf } from "./Avatar.tsx"
export type { AvatarProps } from "./Avatar.tsx"

export { BOTTOM_BUTTON_TEXT_MAX, cutBottomButtonText } from "./bottomButtonText.ts"

/** The development gallery, in its own chunk. */
export const loadUiGallery = () => import("./gallery/UiGallery.tsx")
