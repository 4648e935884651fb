import { cleanup, render } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { chartGeometry } from "@wallet/kernel"
import { LineChart } from "./LineChart.tsx"

afterEach(cleanup)

describe("LineChart (decision 0130)", () => {
  it("draws the geometry's line over its area in the box it was computed for, toned by the trend", () => {
    const geometry = chartGeometry(
      [
        { time: 0, price: 3 },
        { time: 50, price: 1 },
        { time: 100, price: 2 },
      ],
      200,
      100,
      0,
    )
    const { getByTestId } = render(<LineChart geometry={geometry} width={200} height={100} aria-label="TON, day" data-testid="chart" className="tall" />)
    const svg = getByTestId("chart")
    expect(svg.getAttribute("viewBox")).toBe("0 0 200 100")
    expect(svg.getAttribute("role")).toBe("img")
    expect(svg.getAttribute("aria-label")).toBe("TON, day")
    expect(svg.getAttribute("data-trend")).toBe("down")
    expect(svg.getAttribute("class")).toContain("tall")
    const [area, line] = Array.from(svg.querySelectorAll("path"))
    expect(line!.getAttribute("d")).toBe("M0,0 L100,100 L200,50")
    expect(area!.getAttribute("d")).toBe("M0,0 L100,100 L200,50 L200,100 L0,100 Z")
  })
})
