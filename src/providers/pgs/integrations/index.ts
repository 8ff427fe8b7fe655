/** The four integrations, found by a session's `integration` field. */
import type { PgsSessionData } from "../../../payments/session-data"
import { directApi } from "./direct-api"
import { embeddedFields } from "./embedded-fields"
import { hostedPage } from "./hosted-page"
import type { Integration } from "./integration"
import { redirect } from "./redirect"

const INTEGRATIONS: Record<PgsSessionData["integration"], Integration> = {
  embedded_fields: embeddedFields,
  direct_api: directApi,
  hosted_payment_page: hostedPage,
  redirect,
}

export const integrationOf = (current: Pick<PgsSessionData, "integration">): Integration => INTEGRATIONS[current.integration]

export { directApi, embeddedFields, hostedPage, redirect }
export type { Integration, NewAttempt, ShopperChoice } from "./integration"
