/**
 * The one way the extension talks to the server: fetch to /admin/pgs/* (and Medusa's own /admin/payments/*) with the admin's session cookie (or the
 * dashboard's stored bearer token when the admin runs with JWT auth). A 400 keeps its per-field errors so each
 * form shows them next to the field.
 */
export type FieldError = { field: string; message: string }

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: FieldError[] = [],
  ) {
    super(message)
  }

  /** Any thrown value as an ApiError (a network failure has no status and no fields). */
  static from(error: unknown): ApiError {
    return error instanceof ApiError ? error : new ApiError(error instanceof Error ? error.message : String(error), 0)
  }

  /** The message for one field (dotted path), if the server named it. */
  field(name: string): string | undefined {
    return this.fields.find((f) => f.field === name)?.message
  }
}

const backend = (typeof __BACKEND_URL__ === "string" ? __BACKEND_URL__ : "").replace(/\/$/, "")

function bearer(): Record<string, string> {
  try {
    const token = window.localStorage.getItem("medusa_auth_token")
    return token ? { authorization: `Bearer ${token}` } : {}
  } catch {
    return {}
  }
}

export async function api<T>(path: string, init: { method?: "GET" | "POST" | "DELETE"; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
  const res = await fetch(`${backend}${path}`, {
    method: init.method ?? "GET",
    credentials: "include",
    headers: { accept: "application/json", ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...bearer(), ...init.headers },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  })
  const text = await res.text()
  const data = text ? JSON.parse(text) : {}
  if (!res.ok) throw new ApiError(data.message ?? `HTTP ${res.status}`, res.status, Array.isArray(data.errors) ? data.errors : [])
  return data as T
}
