import type { IncomingMessage } from "node:http"

export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError"
}

/**
 * The request body exactly as sent, up to `limit` bytes (the route runs without Medusa's body parser). Plain
 * 'data'/'end' listeners rather than `for await`: the async iterator costs a promise per chunk on every delivery.
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  // A declared size over the limit is refused unread: the 413 goes out and Node discards the rest. Reading and
  // then stopping destroys the request, and the sender sees a reset connection instead of the answer.
  if (Number(req.headers["content-length"]) > limit) return Promise.reject(new BodyTooLargeError(`The body is larger than ${limit} bytes`))
  // Already read to its end by someone else: what the async iterator gave then, nothing (listeners would wait forever).
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (error: Error | null) => {
      req.off("data", onData).off("end", onEnd).off("error", done).off("close", onClose)
      if (error) reject(error)
    }
    const onClose = () => done(new Error("The request closed before its body ended"))
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk
      size += buf.length
      chunks.push(buf)
      if (size <= limit) return
      done(new BodyTooLargeError(`The body is larger than ${limit} bytes`))
      // As the iterator did when the loop threw: stop reading this request.
      req.destroy()
    }
    const onEnd = () => {
      done(null)
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
    }
    req.on("data", onData).on("end", onEnd).on("error", done).on("close", onClose)
  })
}
