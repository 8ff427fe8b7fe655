import { GatewayNotFoundError, GatewayRateLimitedError, GatewayUnavailableError } from "../../../gateway"
import { GatewayPace, isOverload, runPaced } from "../pace"
import { RECONCILE } from "../policy"

describe("reconciliation's pace against the gateway", () => {
  it("adds a check in flight after each full round of answers, up to the maximum", () => {
    const pace = new GatewayPace()
    expect(pace.concurrency).toBe(RECONCILE.pace.start)
    for (let i = 0; i < 1000; i++) pace.answered()
    expect(pace.concurrency).toBe(RECONCILE.pace.max)
  })

  it("halves the checks in flight on 429 and 5xx, down to one, and stops the run after many overloads in a row", () => {
    const pace = new GatewayPace()
    for (let i = 0; i < 1000; i++) pace.answered()
    pace.overloaded(new GatewayRateLimitedError("rate limited", 0))
    expect(pace.concurrency).toBe(RECONCILE.pace.max / 2)
    for (let i = 1; i < RECONCILE.pace.stopAfterOverloads - 1; i++) pace.overloaded(new GatewayUnavailableError("503", true))
    expect(pace.concurrency).toBe(1)
    expect(pace.stopped).toBe(false)
    pace.overloaded(new GatewayUnavailableError("503", true))
    expect(pace.stopped).toBe(true)
  })

  it("counts an answer as the end of a run of overloads", () => {
    const pace = new GatewayPace()
    for (let i = 0; i < RECONCILE.pace.stopAfterOverloads - 1; i++) pace.overloaded(new GatewayRateLimitedError("rate limited", 0))
    pace.answered()
    pace.overloaded(new GatewayRateLimitedError("rate limited", 0))
    expect(pace.stopped).toBe(false)
  })

  it("treats 429, 5xx and timeouts as overload, and a 404 as an answer", () => {
    expect(isOverload(new GatewayRateLimitedError("429", null))).toBe(true)
    expect(isOverload(new GatewayUnavailableError("502", true))).toBe(true)
    expect(isOverload(new GatewayNotFoundError("404"))).toBe(false)
  })

  it("never has more checks in flight than the pace allows, and does every one", async () => {
    const pace = new GatewayPace()
    let inFlight = 0
    let most = 0
    const done: number[] = []
    await runPaced(Array.from({ length: 50 }, (_, i) => i), pace, async (i) => {
      inFlight++
      most = Math.max(most, inFlight)
      await new Promise<void>((resolve) => setImmediate(resolve))
      inFlight--
      done.push(i)
    })
    expect(most).toBe(RECONCILE.pace.start)
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i))
  })

  it("starts nothing more once the pace has stopped", async () => {
    const pace = new GatewayPace()
    const done: number[] = []
    await runPaced([1, 2, 3, 4, 5, 6], pace, async (i) => {
      done.push(i)
      if (i === 1) for (let k = 0; k < RECONCILE.pace.stopAfterOverloads; k++) pace.overloaded(new GatewayRateLimitedError("429", 0))
    })
    expect(done).toEqual([1])
  })
})
