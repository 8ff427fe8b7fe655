import { countByKind, criticalPath, RequestRecord } from "./critical-path"

const request = (url: string, start: number, end: number, kind: RequestRecord["kind"] = "store"): RequestRecord => ({ url, start, end, kind })

describe("criticalPath", () => {
  it("follows requests that start only after another answered, and leaves parallel ones beside the chain", () => {
    const records = [
      request("/store/carts/1", 0, 150),
      request("/texts/en.js", 5, 140, "other"), // beside the cart read, not after it
      request("/store/payment-collections", 150, 300),
      request("https://gw/embedded-fields.js", 160, 320, "gateway"), // started before the collection answered
      request("https://gw/frame", 330, 480, "gateway"),
    ]
    const path = criticalPath(records)
    expect(path.chain.map((r) => r.url)).toEqual(["/store/carts/1", "/store/payment-collections", "https://gw/frame"])
    expect(path.roundTrips).toEqual({ store: 2, gateway: 1, other: 0, total: 3 })
    expect(path.durationMs).toBe(480)
  })

  it("counts a request that starts the moment another answered as waiting for it", () => {
    const path = criticalPath([request("/a", 0, 100), request("/b", 100, 200)])
    expect(path.roundTrips.total).toBe(2)
  })

  it("does not depend on the order the records are given in", () => {
    const records = [request("/c", 300, 400, "gateway"), request("/a", 0, 100), request("/b", 150, 250)]
    expect(criticalPath(records).chain.map((r) => r.url)).toEqual(["/a", "/b", "/c"])
  })

  it("prefers, between chains of equal length, the one that finishes last, then the one with more store round trips", () => {
    const finishesLast = criticalPath([request("/a", 0, 100), request("/early", 100, 200, "gateway"), request("/late", 100, 900, "other")])
    expect(finishesLast.chain.map((r) => r.url)).toEqual(["/a", "/late"])

    const moreStore = criticalPath([request("/gw", 0, 100, "gateway"), request("/store", 0, 100), request("/next", 100, 200, "gateway")])
    expect(moreStore.chain.map((r) => r.url)).toEqual(["/store", "/next"])
  })

  it("answers an empty chain for no requests", () => {
    expect(criticalPath([])).toEqual({ chain: [], roundTrips: { store: 0, gateway: 0, other: 0, total: 0 }, durationMs: 0 })
  })

  it("refuses a record that ends before it starts, or whose times or kind are not usable, naming it", () => {
    expect(() => criticalPath([request("/x", 200, 100)])).toThrow("request 0 (/x): end (100) is before start (200)")
    expect(() => criticalPath([request("/y", 0, Number.NaN)])).toThrow("request 0 (/y): end must be a finite number")
    expect(() => criticalPath([{ ...request("/z", 0, 1), kind: "cdn" as never }])).toThrow('request 0 (/z): kind must be "store", "gateway" or "other"')
  })
})

describe("countByKind", () => {
  it("counts every request per kind, on the chain or not", () => {
    const records = [request("/a", 0, 1), request("/b", 0, 1, "gateway"), request("/c", 0, 1, "gateway"), request("/d", 0, 1, "other")]
    expect(countByKind(records)).toEqual({ store: 1, gateway: 2, other: 1, total: 4 })
  })
})
