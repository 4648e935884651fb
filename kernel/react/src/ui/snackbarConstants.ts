/** Spec section 2 "Snackbars" and section 9. */
export const SNACKBAR_AUTO_HIDE_MS = 6000
/** Length of the hiding state before the snackbar is gone. */
export const SNACKBAR_HIDE_MS = 300
/** A drag starts only after the pointer moved this far. */
export const SNACKBAR_SWIPE_ACTIVATION_PX = 10
/** Dismiss when the drag exceeds this share of the snackbar's size along the drag axis. */
export const SNACKBAR_SWIPE_DISMISS_RATIO = 1 / 3
/** ... or when the release velocity exceeds this (px per ms). */
export const SNACKBAR_SWIPE_VELOCITY = 0.5
/** A drag that does not dismiss springs back in this time. */
export const SNACKBAR_SWIPE_RETURN_MS = 300
/** Length of the shake shown when a snackbar with the current id is shown again (kit choice). */
export const SNACKBAR_SHAKE_MS = 400

/**
 * The swipe decision. `offset` and `velocity` are signed along the drag axis (px, px/ms); `size`
 * is the snackbar's extent on that axis. A fling counts only in the direction of the drag.
 */
export function shouldDismissSwipe({ offset, velocity, size }: { offset: number; velocity: number; size: number }): boolean {
  if (offset === 0) return false
  if (Math.abs(offset) > size * SNACKBAR_SWIPE_DISMISS_RATIO) return true
  return Math.abs(velocity) > SNACKBAR_SWIPE_VELOCITY && Math.sign(velocity) === Math.sign(offset)
}
