/** Test helpers for server suites (`@wallet/kernel-server/testing`). Not for production code. */
export { startTestPostgres, type TestPostgres } from "./postgres.ts"
export { startTestDatabase, testDatabases, type TestDatabase, type TestDatabaseKind } from "./databases.ts"
export { call, bearer, tma, type Reply } from "./http.ts"
export { SQL } from "./sqlOnce.ts"
export { testServerConfig } from "./config.ts"
