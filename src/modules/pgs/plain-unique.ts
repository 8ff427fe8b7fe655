/**
 * `where` for a DML unique index that must not be scoped to `deleted_at` (FRAMEWORK-NOTES 22): `null`. Medusa 2.18's
 * index type does not list null (2.19 added it), so it is typed loosely here, once. The migrations create these
 * indexes plain on every version; on 2.18 only a schema built from the models (module tests) gets them partial,
 * which the webhook log's ON CONFLICT also matches (webhook-queue.ts).
 * Not in models/: Medusa's migration generator reads every export of every file there as a model (FRAMEWORK-NOTES 74).
 */
export const NOT_SCOPED_TO_DELETED_AT = null as unknown as undefined
