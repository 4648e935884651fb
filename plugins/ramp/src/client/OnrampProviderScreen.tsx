import { useSearch } from "@tanstack/react-router"
import { ProviderList } from "./ProviderList.tsx"
import { decodePayload } from "./view.ts"

/** /assets/ramp/onramp/onramp-provider (spec 1 §2): the providers for the chosen purchase. */
export default function OnrampProviderScreen() {
  const search = useSearch({ strict: false }) as { readonly payload?: string }
  const payload = decodePayload(search.payload)
  return <ProviderList payload={payload?.direction === "buy" ? payload : undefined} />
}
