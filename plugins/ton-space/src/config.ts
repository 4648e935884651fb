import { Check, type Composition } from "@wallet/kernel"

/**
 * Region config of the TON space (`host/regions/<id>.ts`, `plugins["@wallet/plugin-ton-space"].config`):
 * the chain API per network (the same origin's /v2 when absent). The manifest declares the check;
 * the screens read the checked value here (no screen imports the manifest, decision 0160).
 */
export const TonSpaceConfigSchema = Check.struct(
  {
    chainApiUrl: Check.optional(Check.string),
    testnetChainApiUrl: Check.optional(Check.string),
  },
  { exact: true },
)
export type TonSpaceConfig = typeof TonSpaceConfigSchema.Type

/** This region's TON space config (checked at composition; absent when the region gives none). */
export const tonSpaceConfig = (kernel: { readonly composition: Pick<Composition, "pluginConfig"> }): TonSpaceConfig | undefined =>
  kernel.composition.pluginConfig.get("ton-space") as TonSpaceConfig | undefined
