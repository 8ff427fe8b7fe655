/**
 * The dashboard's capture/refund lock and the payment's event lock on Medusa's real locking module and Redis provider
 * (a redis-server of the suite's own, as the drills'), the lease lost for real while a job runs: its key gone from
 * Redis, as a lapsed lease or an eviction leaves it, which Medusa's next renewal (a third of the 15 s lease in) finds.
 * No Medusa boot: the module alone, through MedusaApp.
 */
import { MedusaApp } from "@medusajs/framework/modules-sdk"
import type { ILockingModule, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, createMedusaContainer } from "@medusajs/framework/utils"
import { asValue } from "@medusajs/framework/awilix"
import timers from "node:timers/promises"
import { operationLockKey, underOperationLock } from "../../src/api/admin/pgs/orders/operation-lock"
import { underLeasedLock } from "../../src/lib/leased-lock"
import { eventLockKey, underEventLock } from "../../src/workflows/pgs-events/event-lock"
import { waitFor } from "../support/sandbox"
import { type OwnRedis, redisUnavailable, startOwnRedis } from "./support/redis"

const NAMESPACE = "medusa_lock:"
const LOST_LEASE_NOTICED_MS = 15_000

jest.setTimeout(60_000)

const unavailable = redisUnavailable()
if (unavailable) console.warn(`[leased-locks] skipped: ${unavailable}`)

;(unavailable ? describe.skip : describe)("a lock whose lease is lost while its job runs (Medusa's Redis locking)", () => {
  const warnings: string[] = []
  const logger = { info: () => {}, debug: () => {}, log: () => {}, error: () => {}, warn: (message: string) => void warnings.push(message) }
  let app: Awaited<ReturnType<typeof MedusaApp>>
  let container: MedusaContainer
  let locking: ILockingModule
  let redis: OwnRedis

  beforeAll(async () => {
    // The provider's acquire deadline, a timer of the lock's whole `timeout` (60 s for these locks) that each `execute`
    // starts and never clears, would keep jest's worker alive that long after the last test: unreferenced, it still
    // fires while the suite runs (the refused-in-time test), and no longer holds the process.
    const setTimer = timers.setTimeout
    jest.spyOn(timers, "setTimeout").mockImplementation((ms, value, options) => setTimer(ms, value, { ...options, ref: false }))
    redis = await startOwnRedis()
    app = await MedusaApp({
      modulesConfig: {
        [Modules.LOCKING]: {
          resolve: "@medusajs/medusa/locking",
          options: { providers: [{ resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl: redis.url, redisOptions: { retryStrategy: () => null } } }] },
        },
      },
      injectedDependencies: { [ContainerRegistrationKeys.LOGGER]: logger },
    })
    locking = app.modules[Modules.LOCKING] as unknown as ILockingModule
    container = createMedusaContainer()
    container.register({ [Modules.LOCKING]: asValue(locking), [ContainerRegistrationKeys.LOGGER]: asValue(logger) })
  })
  afterAll(async () => {
    await app?.onApplicationShutdown()
    await redis?.stop()
    jest.restoreAllMocks()
  })
  beforeEach(() => void (warnings.length = 0))

  /** What Redis loses: the lock's key gone while its holder runs. Then waits until Medusa's renewal has seen it. */
  const loseLease = async (key: string) => {
    expect(await redis.command("DEL", `${NAMESPACE}${key}`)).toBe(1)
    await waitFor(() => warnings.some((w) => w.startsWith(`Lost the lock for key(s) "${key}"`)), { timeoutMs: LOST_LEASE_NOTICED_MS, what: "Medusa's renewal finding the lease lost" })
  }

  it("answers the capture a dashboard request made under the payment's operation lock, and warns that the lock was lost", async () => {
    const key = operationLockKey("pay_lease_capture")
    let signalled: AbortSignal | undefined
    const answer = await underOperationLock(container, "pay_lease_capture", async (signal) => {
      signalled = signal
      await loseLease(key)
      return { captured: true }
    })
    expect(answer).toEqual({ captured: true })
    expect(signalled?.aborted).toBe(true)
    expect(warnings.filter((w) => w.startsWith("[pgs]"))).toEqual([expect.stringMatching(new RegExp(`^\\[pgs\\] The lock "${key}" was lost while its job ran .*the job finished and its result stands`))])
    // Given back: the next request takes it at once.
    expect(await underOperationLock(container, "pay_lease_capture", async () => "next")).toBe("next")
  })

  it("answers what a run under the payment's event lock did when its lease was lost meanwhile", async () => {
    const reference = "payses_lease01-1"
    const answer = await underEventLock(container, reference, async () => {
      await loseLease(eventLockKey(reference))
      return { paymentId: "pay_lease_event" }
    })
    expect(answer).toEqual({ paymentId: "pay_lease_event" })
    expect(warnings.filter((w) => w.startsWith("[pgs]"))).toEqual([expect.stringContaining(`The lock "${eventLockKey(reference)}" was lost while its job ran`)])
  })

  it("still throws a job's own error when the lease was lost while it ran", async () => {
    const reference = "payses_lease02-1"
    const failed = underEventLock(container, reference, async () => {
      await loseLease(eventLockKey(reference))
      throw new Error("The gateway could not be reached")
    })
    await expect(failed).rejects.toThrow("The gateway could not be reached")
    expect(warnings.filter((w) => w.startsWith("[pgs]"))).toEqual([])
  })

  it("refuses as before when the lock cannot be taken in time: the job never runs", async () => {
    const key = "pgs-leased-lock-test:held"
    await locking.acquire(key, { ownerId: "another-holder", expire: 30 })
    let ran = false
    try {
      await expect(
        underLeasedLock(container, key, async () => void (ran = true), { timeout: 1, expire: 15 }),
      ).rejects.toThrow("Timed-out acquiring lock.")
    } finally {
      await locking.release(key, { ownerId: "another-holder" })
    }
    expect(ran).toBe(false)
    expect(warnings.filter((w) => w.startsWith("[pgs]"))).toEqual([])
  })
})
