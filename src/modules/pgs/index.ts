import { Module } from "@medusajs/framework/utils"
import PgsModuleService from "./service"
import checkOptions from "./loaders/check-options"
import checkMedusaTables from "./loaders/check-medusa-tables"

export const PGS_MODULE = "pgs"

export default Module(PGS_MODULE, { service: PgsModuleService, loaders: [checkOptions, checkMedusaTables] })
