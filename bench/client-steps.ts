/**
 * bench:client's breakdown: what each of the client's own steps costs per authorize, timed in a loop on the bench's
 * body and a real response (a floor: between network waits the same code runs colder, about 2–3× this).
 * `validate_request` is PgsClient's default only: the plugin's client leaves that check to the gateway.
 */
import { AUTHORIZE } from "../src/gateway/resources/payments"
import { toExecutionResult } from "../src/gateway/results"
import type { AuthorizeRequest } from "../src/gateway/schemas"

const ROUNDS = 20_000

function perCallUs(step: () => unknown): number {
  for (let i = 0; i < ROUNDS / 10; i++) step()
  const started = performance.now()
  for (let i = 0; i < ROUNDS; i++) step()
  return Math.round(((performance.now() - started) / ROUNDS) * 1000 * 100) / 100
}

export function clientSteps(body: AuthorizeRequest, responseText: string) {
  const request = AUTHORIZE.request!.parse(body)
  const json = JSON.parse(responseText)
  const response = AUTHORIZE.response.parse(json)
  return {
    validate_request: perCallUs(() => AUTHORIZE.request!.safeParse(body)),
    serialize: perCallUs(() => JSON.stringify(request)),
    parse_json: perCallUs(() => JSON.parse(responseText)),
    validate_response: perCallUs(() => AUTHORIZE.response.safeParse(json)),
    to_result: perCallUs(() => toExecutionResult(response, "POST /api/transactions/authorize")),
  }
}
