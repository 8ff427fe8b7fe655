/** Table names, shared by the DML models and the plain knex queries (queries.ts) so the two cannot drift. */
export const TERMINAL_SETTING_TABLE = "pgs_terminal_setting"
export const WEBHOOK_EVENT_TABLE = "pgs_webhook_event"
export const SAVED_CARD_TABLE = "pgs_saved_card"
