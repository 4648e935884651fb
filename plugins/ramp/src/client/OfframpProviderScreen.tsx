import { useSearch } from "@tanstack/react-router"
import { ProviderList } from "./ProviderList.tsx"
import { decodePayload } from "./view.ts"

/** /assets/ramp/offramp/offramp-provider (spec 1 §2): the providers for the chosen sale. */
export default function OfframpProviderScreen() {
  const search = useSearch({ strict: false }) as { readonly payload?: string }
  const payload = decodePayload(search.payload)
  return <ProviderList payload={payload?.direction === "sell" ? payload : undefined} />
}
