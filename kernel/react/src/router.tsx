import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect, type AnyRoute, type RouterHistory } from "@tanstack/react-router"
import type { ComponentType } from "react"
import { Effect } from "effect"
import { BUILTIN_PARENTS, toSearchValidator, type ComposedRoute, type Composition, type RouteModule, type SearchSchema, type SessionUser } from "@wallet/kernel"
import { hasPermissions, type Kernel } from "./context.tsx"

type Builtin = (typeof BUILTIN_PARENTS)[number]

/** A route the host adds itself (top-level pages of spec 1 §2, fallbacks). */
export interface ShellRoute {
  readonly id: string
  readonly parent: Builtin
  readonly path: string
  readonly search?: SearchSchema
  readonly component: ComponentType | (() => Promise<RouteModule>)
  readonly lazy?: boolean
}

export interface BuildRouterOptions {
  readonly kernel: Kernel
  readonly composition: Composition
  readonly root: ComponentType
  readonly rootSearch?: SearchSchema
  readonly shellRoutes: ReadonlyArray<ShellRoute>
  readonly pending?: ComponentType
  readonly error?: ComponentType<{ error: Error; reset: () => void }>
  readonly notFound?: ComponentType
  /** Called when a permission gate turns the user away (the host shows the functionality-unavailable popup). */
  readonly onGateDenied?: (route: ComposedRoute, missing: ReadonlyArray<string>) => void
  readonly history?: RouterHistory
}

/** Spec 1 §2 "System back": custody home unless custody is unavailable or the user is in the TON space. */
export const defaultBackTarget = (user: SessionUser | undefined, pathname: string): "/main" | "/scw" =>
  user?.isCustodyAvailable && !pathname.startsWith("/scw") ? "/main" : "/scw"

const builtinOf = (composition: Composition, route: ComposedRoute): Builtin => {
  let parentId = route.parentId
  const byId = new Map(composition.routes.map((r) => [r.globalId, r]))
  while (!(BUILTIN_PARENTS as ReadonlyArray<string>).includes(parentId)) parentId = byId.get(parentId)!.parentId
  return parentId as Builtin
}

/** Path below the built-in parent: scw routes are mounted under the `/scw` layout. */
const pathUnder = (builtin: Builtin, fullPath: string) => {
  const relative = builtin === "scw" ? fullPath.replace(/^\/scw/, "") : fullPath
  return relative === "" ? "/" : relative
}

/**
 * Builds the TanStack Router tree from the composition: one root, the pathless custodial layout
 * (`_wallet`, signed-in users only), the `/scw` layout, the host's shell routes and every plugin
 * route with its lazy screen, lenient search schema, permission gate and i18n namespace.
 */
export function buildRouter(options: BuildRouterOptions) {
  const { kernel, composition } = options
  // The `as never` casts below: the tree is built from manifests at run time, so TanStack's static
  // route types cannot describe it; navigation gets its types from route references instead (decision 0170).
  const rootRoute = createRootRoute({
    component: options.root as never,
    ...(options.rootSearch ? { validateSearch: toSearchValidator(options.rootSearch) } : {}),
    ...(options.notFound ? { notFoundComponent: options.notFound } : {}),
  } as never)
  const walletRoute = createRoute({
    getParentRoute: () => rootRoute,
    id: "_wallet",
    component: Outlet,
    beforeLoad: ({ location }) => {
      if (!kernel.user()) throw redirect({ to: "/", search: { backPath: location.href } as never })
    },
  })
  const scwRoute = createRoute({ getParentRoute: () => rootRoute, path: "scw", component: Outlet })
  const parents: Record<Builtin, AnyRoute> = { root: rootRoute, wallet: walletRoute, scw: scwRoute }
  const children: Record<Builtin, AnyRoute[]> = { root: [], wallet: [], scw: [] }

  const screen = (component: ShellRoute["component"] | undefined, lazy: boolean) =>
    component === undefined ? undefined : lazy ? lazyRouteComponent(component as () => Promise<{ default: ComponentType }>) : (component as ComponentType)

  for (const shell of options.shellRoutes) {
    children[shell.parent].push(
      createRoute({
        getParentRoute: () => parents[shell.parent],
        path: pathUnder(shell.parent, shell.path),
        component: screen(shell.component, shell.lazy === true),
        ...(shell.search ? { validateSearch: toSearchValidator(shell.search) } : {}),
      } as never),
    )
  }

  for (const route of composition.routes) {
    const builtin = builtinOf(composition, route)
    const plugin = composition.plugins.find((p) => p.id === route.pluginId)
    const namespace = plugin?.i18n?.namespace
    const gate = composition.permissionGates.get(route.globalId) ?? []
    children[builtin].push(
      createRoute({
        getParentRoute: () => parents[builtin],
        path: pathUnder(builtin, route.fullPath),
        ...(route.search ? { validateSearch: toSearchValidator(route.search) } : {}),
        beforeLoad: ({ location }: { location: { pathname: string } }) => {
          if (route.redirectTo) throw redirect({ to: route.redirectTo })
          if (gate.length > 0 && !hasPermissions(kernel.user(), gate)) {
            const missing = gate.filter((p) => kernel.user()?.permissions[p] !== true)
            options.onGateDenied?.(route, missing)
            throw redirect({ to: defaultBackTarget(kernel.user(), location.pathname) })
          }
        },
        loader: namespace ? () => Effect.runPromise(kernel.i18n.loadNamespace(namespace)) : undefined,
        component: route.component ? lazyRouteComponent(route.component as () => Promise<{ default: ComponentType }>) : undefined,
      } as never),
    )
  }

  const routeTree = rootRoute.addChildren([walletRoute.addChildren(children.wallet), scwRoute.addChildren(children.scw), ...children.root])
  return createRouter({
    routeTree: routeTree as AnyRoute,
    ...(options.history ? { history: options.history } : {}),
    ...(options.pending ? { defaultPendingComponent: options.pending } : {}),
    ...(options.error ? { defaultErrorComponent: options.error as never } : {}),
    defaultPendingMs: 150,
    scrollRestoration: true,
  } as never) as ReturnType<typeof createRouter>
}

export type WalletRouter = ReturnType<typeof buildRouter>
