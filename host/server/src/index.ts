/**
 * `@wallet/host-server`: the API server process. `startServer(options)` is what `main.ts` runs and
 * what tests start (`{ url, close() }`).
 */
import { join } from "node:path";
import { startServer as startKernelServer, type Db, type RunningServer, type ServerPlugin } from "@wallet/kernel-server";
import { Chain } from "@wallet/kernel-server/chain";
import { enabledPluginEntriesOfRegion, loadServerPlugins, repoRoot } from "./plugins.ts";

/** The dev bot token: not a secret, only ever used with WALLET_DEV=1. */
export const DEV_BOT_TOKEN = "7000000001:DEV-wallet-bot-token-not-a-secret";
export const DEFAULT_PORT = 8090;
export const defaultDataDir = join(repoRoot, ".data", "pglite");

export interface HostServerOptions {
  /** Default 8090; 0 picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** PostgreSQL; absent: embedded PGlite. */
  readonly databaseUrl?: string;
  /** PGlite directory (default `<repo>/.data/pglite`); "memory" keeps it in memory. */
  readonly dataDir?: string;
  /** Required unless dev. */
  readonly botToken?: string;
  readonly botUsername?: string;
  /** WALLET_DEV=1: dev endpoints and demo users. */
  readonly dev?: boolean;
  readonly region?: string;
  /**
   * The enabled plugin ids; default: those of `host/regions/<region>.ts` (none if it does not
   * exist yet).
   */
  readonly enabledPlugins?: ReadonlyArray<string>;
  /** Server modules given directly (tests); added to the loaded ones. */
  readonly plugins?: ReadonlyArray<ServerPlugin>;
  readonly accessTokenTtlSeconds?: number;
  readonly refreshTokenTtlSeconds?: number;
  readonly initDataMaxAgeSeconds?: number;
  readonly now?: () => number;
  readonly logRequests?: boolean;
  /** The tonapi-compatible chain API (default: CHAIN_API_URL, else the local devnet on :8091). */
  readonly chainApiUrl?: string;
}

export interface HostServer extends RunningServer {
  readonly database: string;
  readonly region: string;
  readonly usesDevBotToken: boolean;
}

export const startServer = async (options: HostServerOptions = {}): Promise<HostServer> => {
  const dev = options.dev ?? false;
  const region = options.region ?? "default";
  const usesDevBotToken = options.botToken === undefined;
  if (usesDevBotToken && !dev) throw new Error("BOT_TOKEN is required (only a dev server, WALLET_DEV=1, has a dev bot token)");
  const database: Db.DatabaseOptions = options.databaseUrl
    ? { kind: "postgres", url: options.databaseUrl }
    : options.dataDir === "memory"
      ? { kind: "pglite" }
      : { kind: "pglite", dataDir: options.dataDir ?? defaultDataDir };
  const entries = options.enabledPlugins?.map((id) => ({ id, config: undefined })) ?? (await enabledPluginEntriesOfRegion(region)) ?? [];
  const pluginIds = entries.map((entry) => entry.id);
  const pluginConfig = Object.fromEntries(entries.map((entry) => [entry.id, entry.config]));
  const plugins = [...(await loadServerPlugins(pluginIds)), ...(options.plugins ?? [])];
  const server = await startKernelServer({
    port: options.port ?? DEFAULT_PORT,
    host: options.host ?? "127.0.0.1",
    database,
    botToken: options.botToken ?? DEV_BOT_TOKEN,
    ...(options.botUsername !== undefined ? { botUsername: options.botUsername } : {}),
    region,
    dev,
    plugins,
    pluginConfig,
    ...(options.accessTokenTtlSeconds !== undefined ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds } : {}),
    ...(options.refreshTokenTtlSeconds !== undefined ? { refreshTokenTtlSeconds: options.refreshTokenTtlSeconds } : {}),
    ...(options.initDataMaxAgeSeconds !== undefined ? { initDataMaxAgeSeconds: options.initDataMaxAgeSeconds } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
    ...(options.logRequests !== undefined ? { logRequests: options.logRequests } : {}),
    ...(options.chainApiUrl !== undefined ? { chain: Chain.layer({ baseUrl: options.chainApiUrl }), chainApiUrl: options.chainApiUrl } : {}),
  });
  const databaseName = database.kind === "postgres" ? "postgresql (DATABASE_URL)" : database.dataDir ? `pglite ${database.dataDir}` : "pglite (memory)";
  return { ...server, database: databaseName, region, usesDevBotToken };
};
