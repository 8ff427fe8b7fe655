/**
 * Everything the store writes to its log while a test runs: Medusa's logger (every level, with each argument as
 * util.inspect shows it, an error's own fields too), the console and the process's stdout and stderr. The store runs
 * in the test's process (medusaIntegrationTestRunner), so this is the log a store's operator would read. Everything is
 * still passed on as before.
 */
import { inspect } from "node:util"
import type { MedusaContainer } from "@medusajs/framework/types"

const LOGGER_LEVELS = ["panic", "error", "warn", "info", "http", "verbose", "debug", "silly", "log", "activity", "progress", "success", "failure"]
const CONSOLE_LEVELS = ["log", "info", "warn", "error", "debug", "trace"] as const

export function captureLogs(container: MedusaContainer) {
  const lines: string[] = []
  const record = (args: unknown[]) => lines.push(args.map((a) => (typeof a === "string" ? a : inspect(a, { depth: 6, showHidden: false }))).join(" "))
  const restore: (() => void)[] = []
  const wrap = (target: any, name: string, asWrite = false) => {
    const original = target[name]
    if (typeof original !== "function") return
    target[name] = function (...args: unknown[]) {
      record(asWrite ? [String(args[0])] : args)
      return original.apply(this, args)
    }
    restore.push(() => (target[name] = original))
  }
  const logger = container.resolve<any>("logger")
  for (const level of LOGGER_LEVELS) wrap(logger, level)
  for (const level of CONSOLE_LEVELS) wrap(console, level)
  wrap(process.stdout, "write", true)
  wrap(process.stderr, "write", true)
  return {
    text: () => lines.join("\n"),
    lineCount: () => lines.length,
    stop: () => restore.reverse().forEach((undo) => undo()),
  }
}
