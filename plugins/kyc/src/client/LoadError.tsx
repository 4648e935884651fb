import { useT } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"

/** The status could not be loaded: the reason and a retry (every kyc screen that reads the status). */
export function LoadError({ retry }: { readonly retry: () => void }) {
  const t = useT("kyc")
  return (
    <Placeholder
      kind="error"
      title={t("loadError")}
      action={
        <Button look="secondary" size="s" onClick={retry}>
          {t("retry")}
        </Button>
      }
    />
  )
}
