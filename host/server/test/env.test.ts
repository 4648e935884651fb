import { describe, expect, it } from "vitest"
import { serverOptionsFromEnv } from "../src/index.ts"

describe("security settings from the environment (decision 0207)", () => {
  it("reads the access token lifetime and the CORS origins", () => {
    expect(serverOptionsFromEnv({})).toEqual({})
    expect(serverOptionsFromEnv({ ACCESS_TOKEN_TTL_SECONDS: "300", CORS_ORIGINS: "https://wallet.example.org, http://127.0.0.1:5173" })).toEqual({
      accessTokenTtlSeconds: 300,
      corsOrigins: ["https://wallet.example.org", "http://127.0.0.1:5173"],
    })
    expect(serverOptionsFromEnv({ ACCESS_TOKEN_TTL_SECONDS: "", CORS_ORIGINS: " " })).toEqual({})
  })

  it("refuses a lifetime it cannot honour and a wildcard origin", () => {
    for (const bad of ["0", "59", "86401", "15m", "-5", "1e3", "900.5"]) {
      expect(() => serverOptionsFromEnv({ ACCESS_TOKEN_TTL_SECONDS: bad }), bad).toThrow(/ACCESS_TOKEN_TTL_SECONDS/)
    }
    expect(() => serverOptionsFromEnv({ CORS_ORIGINS: "*" })).toThrow(/CORS origin/)
  })
})
