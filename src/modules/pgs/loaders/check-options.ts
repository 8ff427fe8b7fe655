/**
 * At boot, say what is missing for webhooks (or wrong with the payout terminal) instead of failing later on first
 * use. A warning, not an error: a store may boot without the gateway configured (the route then answers 503 so
 * the gateway retries). A malformed `webhookReceiver` is an error: it was asked for, and would silently not run.
 */
import type { LoaderOptions } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { buildGatewayClient } from "../gateway"
import { payoutTerminalFrom, webhookReceiverFrom } from "../options"
import { PACKAGE_VERSION } from "../../../gateway"

export default async function checkOptions({ container, options }: LoaderOptions) {
  // Once per process: which build answers, for an operator reading logs across a rolling upgrade.
  container.resolve(ContainerRegistrationKeys.LOGGER).info(`medusa-payment-pgs ${PACKAGE_VERSION}`)
  webhookReceiverFrom(options)
  try {
    await buildGatewayClient(options).client.close()
  } catch (error) {
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    logger.warn(`medusa-payment-pgs: gateway webhooks are not usable until this is fixed:\n${(error as Error).message}`)
  }
  try {
    payoutTerminalFrom(options)
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn((error as Error).message)
  }
}
