import { describe, expect, it } from "vitest"
import { csvCell, exportFileName, exportRow, periodStart, toCsv, EXPORT_COLUMNS } from "./orderCsv.ts"

describe("order-history CSV (issue 21)", () => {
  it("quotes per RFC 4180: commas, quotes (doubled) and line breaks", () => {
    expect(csvCell("plain")).toBe("plain")
    expect(csvCell("a,b")).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell("two\nlines")).toBe('"two\nlines"')
    expect(csvCell("")).toBe("")
  })

  it("neutralises cells a spreadsheet would run as a formula", () => {
    expect(["=1+1", "+7 916", "-2", "@SUM(A1)", "\tx", "\rx"].map(csvCell)).toEqual(["'=1+1", "'+7 916", "'-2", "'@SUM(A1)", "'\tx", '"\'\rx"'])
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`)
    expect(csvCell("a=b")).toBe("a=b")
  })

  it("writes the header row and CRLF line ends", () => {
    expect(toCsv([["1", "x"]])).toBe(`${EXPORT_COLUMNS.join(",")}\r\n1,x\r\n`)
    expect(toCsv([])).toBe(`${EXPORT_COLUMNS.join(",")}\r\n`)
  })

  it("shows amounts as plain decimals and times in ISO UTC", () => {
    const row = exportRow({
      id: 7,
      createdAt: new Date(Date.UTC(2026, 2, 1, 10, 5)),
      status: "COMPLETED",
      side: "buyer",
      crypto: "TON",
      amount: 1_500_000_000n,
      fiat: "EUR",
      fiatAmount: 450_050n,
      priceCents: 300_033n,
      fee: 0n,
      counterparty: "Lena Level",
      paymentMethod: "SEPA",
      completedAt: null,
    })
    expect(row).toEqual(["7", "2026-03-01T10:05:00.000Z", "COMPLETED", "buyer", "TON", "1.5", "EUR", "4500.5", "3000.33", "0", "Lena Level", "SEPA", ""])
    expect(row).toHaveLength(EXPORT_COLUMNS.length)
  })

  it("counts the periods back from now, and names the file by period and day", () => {
    const now = Date.UTC(2026, 3, 30, 12)
    expect(periodStart("all", now)).toBeNull()
    expect(periodStart("30d", now)!.toISOString()).toBe("2026-03-31T12:00:00.000Z")
    expect(periodStart("90d", now)!.toISOString()).toBe("2026-01-30T12:00:00.000Z")
    expect(exportFileName("90d", now)).toBe("p2p-orders-90d-2026-04-30.csv")
  })
})
