/**
 * npm run bench:shopper [-- --runs N] [-- --pause-ms MS] — the shopper's wait, in Chromium as a mid-range phone (150 ms round trip,
 * 1.6 Mb/s down, 750 kb/s up, CPU 4× slower) against the demo's storefront: the card, a card with a 3-D Secure
 * challenge, a redirect method up to the bank's page, the payment-collection page and the React binding. Per phase:
 * time (median of N runs, default 3), requests, the critical path in store and gateway round trips, the widget's
 * bytes, repeated requests; and each phase's ratio to the floor page measured in the same run. Pay is pressed
 * SHOPPER_PAUSE_MS (1 s) after the card's last field, as a person presses it; `--pause-ms 0` presses it at once.
 * Goals (issue 48): every phase that has a floor (payment steps; Pay → order page) within 1.25× it; the first paint's script ≤ 8,704 B gzipped
 * (bench:widget); no request made twice in a phase. The exit code is 1 when one is missed. Last line: one JSON object.
 */
import { spawnSync } from "node:child_process"
import path from "node:path"
import { CPU_SLOWDOWN, launchBrowser, NETWORK } from "./browser"
import { summarisePhase, type PhaseResult } from "./phase"
import { JOURNEYS, runJourney, SHOPPER_PAUSE_MS, type JourneyContext } from "./scenarios"
import { startStack } from "./stack"
import { storeApi } from "./store-api"

const FLOOR_RATIO_GOAL = 1.25
const FIRST_PAINT_GOAL_BYTES = 8704

async function main() {
  const runs = wholeFlag(process.argv.slice(2), "--runs", 3, 1, 20)
  const pauseMs = wholeFlag(process.argv.slice(2), "--pause-ms", SHOPPER_PAUSE_MS, 0, 10_000)
  const log = (line: string) => console.log(`[bench:shopper] ${line}`)
  const started = Date.now()
  const stack = await startStack(log)
  const browser = await launchBrowser()
  // Ctrl-C stops what the bench started (Medusa, the sandbox, its database) before it exits.
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => void browser.close().finally(() => stack.stop()).finally(() => process.exit(130)))
  const results = new Map<string, Map<string, PhaseResult[]>>() // journey → phase → one result per run
  const failures: string[] = []
  try {
    const ctx: JourneyContext = { stack, api: storeApi(stack), browser, orders: [], pauseMs }
    for (let run = 1; run <= runs; run++) {
      // Journeys in turn within a run, so the machine's slow moments spread over all of them.
      for (const journey of JOURNEYS) {
        // A journey that breaks (the store refusing, a page never ready) is reported and the others go on; the
        // floor cannot be missed.
        const done = await runJourney(journey, ctx).catch((error: Error) => {
          if (journey.floor) throw error
          failures.push(`run ${run}: ${error.message}`)
          log(`run ${run}/${runs} ${error.message}`)
          return null
        })
        if (!done) continue
        const { phases, m } = done
        const origins = { store: stack.storeUrl, gateway: new URL(stack.gatewayUrl).origin }
        const byPhase = results.get(journey.name) ?? new Map<string, PhaseResult[]>()
        results.set(journey.name, byPhase)
        for (const p of phases) byPhase.set(p.name, [...(byPhase.get(p.name) ?? []), summarisePhase(m.network.requests, p.start, p.end, origins)])
        await m.close()
        log(`run ${run}/${runs} ${journey.name}: ${phases.map((p) => `${p.name} ${Math.round(p.end - p.start)} ms`).join(", ")}`)
      }
    }
  } finally {
    await browser.close()
    await stack.stop()
  }

  const median = (list: PhaseResult[]) => [...list].sort((a, b) => a.ms - b.ms)[Math.floor((list.length - 1) / 2)]!
  const floorMs = (journey: string, phase: string) => median(results.get(journey)!.get(phase)!).ms
  const floors = { click: floorMs("floor", "payment step"), load: floorMs("floor at load", "payment step"), pay: floorMs("floor", "pay → order page") }
  // A payment step against the floor started the same way (by a click, or by the page's load: the collection page);
  // Pay → order page against the floor's. The other phases (a bank's page or challenge, the collection's paid) have none.
  const floorFor = (journey: string, phase: string) =>
    JOURNEYS.find((j) => j.name === journey)!.floor ? null
    : phase === "payment step" ? (journey === "payment-collection page" ? floors.load : floors.click)
    : phase === "pay → order page" ? floors.pay
    : null
  const journeys = [...results].map(([journey, phases]) => ({
    journey,
    phases: [...phases].map(([phase, list]) => {
      const m = median(list)
      const floor = floorFor(journey, phase)
      return {
        phase,
        ms: m.ms,
        ms_runs: list.map((r) => r.ms),
        ratio_to_floor: floor === null ? null : Number((m.ms / floor).toFixed(2)),
        requests: m.requests,
        from_cache: m.from_cache,
        preflights: m.preflights,
        critical_path: m.critical_path,
        widget_bytes: m.widget_bytes,
        // Over every run: a request repeated once is a defect even when the median run was clean.
        repeated: [...new Set(list.flatMap((r) => r.repeated))],
        gateway_repeated: [...new Set(list.flatMap((r) => r.gateway_repeated))],
      }
    }),
  }))

  const firstPaint = firstPaintBytes()
  const measured = journeys.flatMap((j) => j.phases.map((p) => ({ ...p, journey: j.journey })))
  const overFloor = measured.filter((p) => p.ratio_to_floor !== null && p.ratio_to_floor > FLOOR_RATIO_GOAL)
  const repeated = measured.filter((p) => p.repeated.length)
  const goals = {
    within_floor_ratio: overFloor.length === 0,
    first_paint_within_budget: firstPaint <= FIRST_PAINT_GOAL_BYTES,
    no_repeated_requests: repeated.length === 0,
    every_journey_completed: failures.length === 0,
  }

  console.log(`\nNetwork ${NETWORK.roundTripMs} ms round trip, ${NETWORK.downKbps / 1000} Mb/s down, ${NETWORK.upKbps} kb/s up; CPU ${CPU_SLOWDOWN}× slower; median of ${runs} run(s); Pay pressed ${pauseMs} ms after the card's last field.`)
  console.log(`Floor page (one store call, then the gateway's script and frames): ${floors.click} ms from a click, ${floors.load} ms from the page's load; Pay → order page ${floors.pay} ms.`)
  for (const p of measured) {
    const c = p.critical_path
    console.log(
      `${p.journey.padEnd(28)} ${p.phase.padEnd(24)} ${String(p.ms).padStart(6)} ms${p.ratio_to_floor === null ? "        " : `  ${p.ratio_to_floor.toFixed(2)}×`}  ` +
        `${p.requests.total} requests (${p.requests.store} store, ${p.requests.gateway} gateway) + ${p.preflights} preflights, critical path ${c.total}: ${c.store} store + ${c.gateway} gateway + ${c.other} other, ` +
        `widget ${p.widget_bytes} B${p.repeated.length ? `, REPEATED ${p.repeated.join("; ")}` : ""}`,
    )
  }
  console.log(`Goals: phases within ${FLOOR_RATIO_GOAL}× the floor: ${goals.within_floor_ratio ? "met" : `NOT met (${overFloor.map((p) => `${p.journey} ${p.ratio_to_floor}×`).join(", ")})`}; ` +
    `${failures.length ? `${failures.length} journey(s) FAILED; ` : ""}first paint ${firstPaint} B gzipped ≤ ${FIRST_PAINT_GOAL_BYTES}: ${goals.first_paint_within_budget ? "met" : "NOT met"}; no request twice in a phase: ${goals.no_repeated_requests ? "met" : "NOT met"}.`)
  console.log(JSON.stringify({
    bench: "shopper",
    runs,
    network: { round_trip_ms: NETWORK.roundTripMs, down_kbps: NETWORK.downKbps, up_kbps: NETWORK.upKbps },
    cpu_slowdown: CPU_SLOWDOWN,
    pause_before_pay_ms: pauseMs,
    floor_ms: floors,
    first_paint_gzip_bytes: firstPaint,
    goals,
    journeys,
    failures,
    wall_s: Math.round((Date.now() - started) / 1000),
  }))
  if (Object.values(goals).includes(false)) process.exitCode = 1
}

/** The first paint's gzipped script, as `npm run bench:widget` measures it (its JSON last line). */
function firstPaintBytes(): number {
  // Its exit code says whether its own goals hold; only the measurement is read here.
  const out = spawnSync(process.execPath, [path.resolve(__dirname, "../../storefront-widget/bench/size.mjs")], { encoding: "utf8" }).stdout.trim().split("\n")
  return (JSON.parse(out[out.length - 1]!) as { core_gzip_bytes: number }).core_gzip_bytes
}

function wholeFlag(argv: string[], flag: string, otherwise: number, min: number, max: number): number {
  const i = argv.indexOf(flag)
  if (i < 0) return otherwise
  const n = Number(argv[i + 1])
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} needs a whole number from ${min} to ${max}, got ${argv[i + 1] ?? "nothing"}`)
  return n
}

main().catch((error) => {
  console.error(`[bench:shopper] ${(error as Error).stack ?? error}`)
  process.exit(1)
})
