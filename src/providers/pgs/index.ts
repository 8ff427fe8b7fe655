import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { ALTERNATIVE_PROVIDERS } from "./alternative"
import { PgsCardProvider } from "./card"

export default ModuleProvider(Modules.PAYMENT, { services: [PgsCardProvider, ...ALTERNATIVE_PROVIDERS] })
