/**
 * A webhook delivery as the event log records it. Its own file: the service, the queue and the intake all use it,
 * and none of them needs to import another for it.
 */
export type NewWebhookEvent = {
  delivery_key: string
  event: string
  subject_id: string | null
  reference: string | null
  payload: Record<string, unknown>
}

export type RecordedWebhookEvent = { id: string; is_new: boolean }
