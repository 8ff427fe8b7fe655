import { useState } from "react"
import { ApiError } from "./api"

/** A button's action: `busy` while it runs (for isLoading), whatever the outcome. */
export function useAction() {
  const [busy, setBusy] = useState(false)
  async function run(action: () => Promise<void>) {
    setBusy(true)
    try {
      await action()
    } finally {
      setBusy(false)
    }
  }
  return { busy, run }
}

/** A form's submit: busy while it runs, and the server's error (with its per-field messages) once it failed. */
export function useSubmit() {
  const action = useAction()
  const [error, setError] = useState<ApiError | null>(null)
  const submit = (send: () => Promise<void>) =>
    action.run(async () => {
      setError(null)
      try {
        await send()
      } catch (e) {
        setError(ApiError.from(e))
      }
    })
  return { busy: action.busy, error, submit }
}
