/**
 * React binding of the payment-collection entry: the page behind Medusa's "Copy payment link".
 *   <PgsCollectionPayment sdk={sdk} collectionId={params.id} orderId={searchParams.order_id} onPaid={...} />
 */
import { createElement, useEffect, useRef, type ReactElement } from "react"
import { mountCollectionPayment, returnToCollection, type CollectionOptions, type CollectionPayment } from "../collection/index.js"

export function PgsCollectionPayment({ id, className, ...options }: CollectionOptions & { id?: string; className?: string }): ReactElement {
  const ref = useRef<HTMLDivElement>(null)
  const latest = useRef<CollectionOptions>(options as CollectionOptions)
  latest.current = options as CollectionOptions
  useEffect(() => {
    let widget: CollectionPayment | null = null
    // A tick later: StrictMode's double mount would start two payment sessions.
    const t = setTimeout(() => {
      const o = latest.current!
      widget = mountCollectionPayment(ref.current!, { ...o, onPaid: (p) => latest.current!.onPaid?.(p) })
    })
    return () => {
      clearTimeout(t)
      widget?.destroy()
    }
  }, [options.collectionId])
  return createElement("div", { ref, id, className })
}

export { returnToCollection, type CollectionOptions }
