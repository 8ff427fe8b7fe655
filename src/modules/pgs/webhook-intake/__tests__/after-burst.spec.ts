import { afterBurst } from "../after-burst"

describe("handing deliveries on after a burst", () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  function recorder() {
    const handed: string[][] = []
    return { handed, handOn: async (ids: string[]) => void handed.push(ids) }
  }

  it("hands on what arrived together once deliveries pause", () => {
    const { handed, handOn } = recorder()
    const queue = afterBurst(handOn, { quietMs: 150, maxWaitMs: 2_000 })
    queue.add(["a"])
    jest.advanceTimersByTime(100)
    queue.add(["b", "c"])
    jest.advanceTimersByTime(149)
    expect(handed).toEqual([])
    jest.advanceTimersByTime(1)
    expect(handed).toEqual([["a", "b", "c"]])
  })

  it("does not hold deliveries longer than maxWaitMs while a stream never pauses", () => {
    const { handed, handOn } = recorder()
    const queue = afterBurst(handOn, { quietMs: 150, maxWaitMs: 1_000 })
    for (let t = 0; t < 1_500; t += 100) {
      queue.add([`e${t}`])
      jest.advanceTimersByTime(100)
    }
    // The first batch went at 1 s: the ten deliveries that had arrived by then, the first of them 1 s old.
    expect(handed[0]).toEqual(Array.from({ length: 10 }, (_, i) => `e${i * 100}`))
    jest.advanceTimersByTime(150)
    expect(handed.flat()).toHaveLength(15)
  })

  it("lets shutdown wait until what was waiting has been handed on", async () => {
    let finished = false
    const queue = afterBurst(async () => {
      await Promise.resolve()
      finished = true
    })
    queue.add(["a"])
    await queue.flushNow()
    expect(finished).toBe(true)
  })

  it("hands on what is waiting at once when flushed (shutdown)", () => {
    const { handed, handOn } = recorder()
    const queue = afterBurst(handOn)
    queue.add(["a"])
    queue.flushNow()
    expect(handed).toEqual([["a"]])
    queue.flushNow()
    jest.advanceTimersByTime(5_000)
    expect(handed).toEqual([["a"]])
  })
})
