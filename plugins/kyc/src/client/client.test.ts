import { describe, expect, it } from "vitest"
import { HttpError } from "@wallet/kernel"
import { refusalCode } from "./client.ts"

describe("refusalCode", () => {
  it("a refused evidence upload shows the server's reason, not the transport's UNKNOWN (bug: 'Unknown Error: 409' on a non-image file)", () => {
    const refused = new HttpError({ code: "UNKNOWN", message: "Unknown Error: 409", status: 409, body: { code: "file_invalid", message: "send a photo" } })
    expect(refusalCode(refused)).toBe("file_invalid")
    expect(refusalCode(new HttpError({ code: "ERR_NETWORK", message: "Network error" }))).toBe("ERR_NETWORK")
    expect(refusalCode({ _tag: "KycEvidenceRefused", code: "too_many_files" })).toBe("too_many_files")
    expect(refusalCode("nope")).toBeUndefined()
  })
})
