/**
 * Medusa's Query with plain string entities. The generated typings of `query.graph` make tsc run out of memory on
 * this project (measured: > 4 GB), so callers get this narrow shape and check the rows they read.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

export type LooseQuery = {
  graph(input: { entity: string; fields: string[]; filters?: Record<string, unknown>; pagination?: Record<string, unknown> }): Promise<{ data: unknown[] }>
}

export const looseQuery = (container: MedusaContainer) => container.resolve<LooseQuery>(ContainerRegistrationKeys.QUERY)
