import { Module } from "@medusajs/framework/utils"
import PgsModuleService from "./service"
import checkOptions from "./loaders/check-options"

export const PGS_MODULE = "pgs"

export default Module(PGS_MODULE, { service: PgsModuleService, loaders: [checkOptions] })
