import type { Check } from "./check.ts"

/**
 * Typed references to routes (decision 0170). A plugin declares each route it navigates to once, as
 * `routeRef("/assets/$assetCurrency", searchCheck)`, and navigation takes the reference: the path's
 * `$params` are required by name and the search object is checked against the route's search type.
 * The route tree is composed at run time from manifests, so TanStack Router's own registered types
 * cannot know these paths; this is the one place that bridges the two (the kernel's `useGo`).
 */

type Segments<P extends string> = P extends `${infer Head}/${infer Tail}` ? Segments<Head> | Segments<Tail> : P
type ParamName<S> = S extends `$${infer Name}` ? Name : never

/** `{ assetCurrency: string }` for `/assets/$assetCurrency`; `{}` for a path without params. */
export type RouteParams<P extends string> = { readonly [K in ParamName<Segments<P>>]: string }

/** What a route's search accepts when navigating: every field optional (defaults fill the rest). */
export type RouteSearch<S> = { readonly [K in keyof S]?: S[K] | undefined }

export interface RouteRef<P extends string = string, S = Readonly<Record<string, unknown>>> {
  /** The full path as the composed route tree has it (parent paths included). */
  readonly path: P
  /** The route's search check, when it has one (the manifest uses the same object). */
  readonly search: Check<S> | undefined
}

/** A reference to the route at the full path `path`, with the search type of `search` when given. */
export function routeRef<const P extends string>(path: P): RouteRef<P, Readonly<Record<string, unknown>>>
export function routeRef<const P extends string, S>(path: P, search: Check<S>): RouteRef<P, S>
export function routeRef(path: string, search?: Check<unknown>): RouteRef<string, unknown> {
  if (!path.startsWith("/")) throw new Error(`Route reference '${path}' must be a full path starting with '/'`)
  return { path, search }
}

interface TargetOptions<S> {
  readonly search?: RouteSearch<S>
  readonly replace?: boolean
}

/** The options after the reference: `params` are required exactly when the path has `$params`. */
export type TargetArgs<P extends string, S> = [keyof RouteParams<P>] extends [never]
  ? [options?: TargetOptions<S>]
  : [options: TargetOptions<S> & { readonly params: RouteParams<P> }]

/** A navigation target in the router's plain shape. */
export interface RouteTarget {
  readonly to: string
  readonly params?: Readonly<Record<string, string>>
  readonly search?: Readonly<Record<string, unknown>>
  readonly replace?: boolean
}

/** The router target of `ref` with its params and search; `undefined` search fields are left out. */
export function targetOf<P extends string, S>(ref: RouteRef<P, S>, ...[options]: TargetArgs<P, S>): RouteTarget {
  const given = options as (TargetOptions<S> & { readonly params?: Readonly<Record<string, string>> }) | undefined
  const search = given?.search ? Object.fromEntries(Object.entries(given.search).filter(([, value]) => value !== undefined)) : undefined
  return {
    to: ref.path,
    ...(given?.params ? { params: given.params } : {}),
    ...(search ? { search } : {}),
    ...(given?.replace ? { replace: true } : {}),
  }
}

/** The URL path of `ref` with its params filled in (encoded), e.g. for links and deep-link answers. */
export function hrefOf<P extends string, S>(ref: RouteRef<P, S>, ...[options]: TargetArgs<P, S>): string {
  const target = targetOf(ref, ...([options] as TargetArgs<P, S>))
  const path = ref.path.replace(/\$([A-Za-z_][\w]*)/g, (_, name: string) => {
    const value = target.params?.[name]
    if (value === undefined) throw new Error(`Route '${ref.path}' needs the param '${name}'`)
    return encodeURIComponent(value)
  })
  if (!target.search || Object.keys(target.search).length === 0) return path
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(target.search)) query.set(key, typeof value === "string" ? value : JSON.stringify(value))
  return `${path}?${query.toString()}`
}

/** Pattern form of a path for comparing references with composed routes (`$x` segments match any `$y`). */
const pattern = (path: string) => (path.length > 1 ? path.replace(/\/+$/, "") : path).replace(/\$[\w]+/g, "$")

/**
 * The references whose path is not a route of the composition (for a test per plugin: a renamed
 * route breaks its references at test time instead of at a user's tap).
 */
export function unknownRouteRefs(refs: ReadonlyArray<RouteRef<string, any>>, routePaths: ReadonlyArray<string>): ReadonlyArray<string> {
  const known = new Set(routePaths.map(pattern))
  return refs.map((ref) => ref.path).filter((path) => !known.has(pattern(path)))
}
