import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { PgsCardProvider } from "./card"

export default ModuleProvider(Modules.PAYMENT, { services: [PgsCardProvider] })
