import { useEffect } from "react"
import { useGo } from "@wallet/kernel-react"
import { kycMainRoute } from "../routes.ts"

/** /kyc: leads to the verification steps (spec 3 §2.2), replacing itself in the history. */
export default function IndexScreen() {
  const go = useGo()
  useEffect(() => {
    void go(kycMainRoute, { search: {}, replace: true })
  }, [go])
  return null
}
