import { lazy, Suspense } from "react"
import { useFlag, useT } from "@wallet/kernel-react"
import { loadUiGallery, Placeholder } from "@wallet/kernel-react/ui"
import { ListSkeleton, NS, Screen } from "./ui.tsx"

const UiGallery = lazy(() => loadUiGallery().then((module) => ({ default: module.UiGallery })))

/** /trade/ui-gallery (spec 1 §2): the kit's development gallery, behind the dev_tools flag (spec 1 §6). */
export default function GalleryScreen() {
  const t = useT(NS)
  const devTools = useFlag("dev_tools")
  if (!devTools)
    return (
      <Screen testId="trade-gallery-off">
        <Placeholder title={t("gallery.offTitle")} description={t("gallery.offText")} />
      </Screen>
    )
  return (
    <Suspense fallback={<ListSkeleton />}>
      <UiGallery />
    </Suspense>
  )
}
