/**
 * At boot, say what is missing for webhooks instead of failing later on the first delivery. A warning, not an
 * error: a store may boot without the gateway configured (the route then answers 503 so the gateway retries).
 */
import type { LoaderOptions } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { buildGatewayClient } from "../gateway"

export default async function checkOptions({ container, options }: LoaderOptions) {
  try {
    await buildGatewayClient(options).client.close()
  } catch (error) {
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    logger.warn(`medusa-payment-pgs: gateway webhooks are not usable until this is fixed:\n${(error as Error).message}`)
  }
}
