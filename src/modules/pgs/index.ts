import { Module } from "@medusajs/framework/utils"
import PgsModuleService from "./service"

export const PGS_MODULE = "pgs"

export default Module(PGS_MODULE, { service: PgsModuleService })
