/**
 * `BENCH_PROFILE=<dir> npm run bench:checkout`: where a checkout's CPU goes, per provider. For each provider in turn,
 * 40 checkouts (after 5 to warm up) run under V8's CPU profiler in this process (the store's), with the gateway's
 * webhooks held, so each profile holds only checkouts. Writes `<dir>/<provider>.cpuprofile` (open it in Chrome's
 * DevTools) and prints the functions whose own time per checkout differs most between the first provider and the
 * second. Prints no JSON line: it is a tool for looking, not a figure.
 */
import fs from "node:fs"
import { Session } from "node:inspector"
import path from "node:path"

type Profile = {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>
  samples: number[]
  timeDeltas: number[]
}

const CHECKOUTS = 40
const WARM_UP = 5

/** Own (self) time per function, in ms per checkout. */
function selfTimes(profile: Profile): Map<string, number> {
  const names = new Map(profile.nodes.map((n) => [n.id, `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`]))
  const times = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    const name = names.get(id)!
    times.set(name, (times.get(name) ?? 0) + profile.timeDeltas[i]! / 1000 / CHECKOUTS)
  })
  return times
}

export async function profileCheckouts(dir: string, providers: [string, string], checkout: (providerId: string) => Promise<unknown>) {
  fs.mkdirSync(dir, { recursive: true })
  const session = new Session()
  session.connect()
  const post = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))))
  await post("Profiler.enable")
  await post("Profiler.setSamplingInterval", { interval: 100 })
  const times: Array<Map<string, number>> = []
  for (const provider of providers) {
    for (let i = 0; i < WARM_UP; i++) await checkout(provider)
    await post("Profiler.start")
    for (let i = 0; i < CHECKOUTS; i++) await checkout(provider)
    const { profile } = await post<{ profile: Profile }>("Profiler.stop")
    fs.writeFileSync(path.join(dir, `${provider}.cpuprofile`), JSON.stringify(profile))
    times.push(selfTimes(profile))
  }
  session.disconnect()
  const [a, b] = times as [Map<string, number>, Map<string, number>]
  const busy = (t: Map<string, number>) => [...t].filter(([name]) => !name.startsWith("(idle)")).reduce((sum, [, ms]) => sum + ms, 0)
  process.stdout.write(`CPU per checkout, profiled: ${providers[0]} ${busy(a).toFixed(1)} ms, ${providers[1]} ${busy(b).toFixed(1)} ms\n`)
  const names = new Set([...a.keys(), ...b.keys()].filter((name) => !name.startsWith("(idle)")))
  const diffs = [...names].map((name) => [name, (a.get(name) ?? 0) - (b.get(name) ?? 0)] as const).sort((x, y) => y[1] - x[1])
  process.stdout.write(`own time per checkout, ${providers[0]} minus ${providers[1]} (ms):\n`)
  for (const [name, ms] of diffs.slice(0, 25)) process.stdout.write(`  ${ms.toFixed(2).padStart(7)}  ${name}\n`)
}
