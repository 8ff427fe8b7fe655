import type { IncomingMessage } from "node:http"

export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError"
}

/** The request body exactly as sent, up to `limit` bytes (the route runs without Medusa's body parser). */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  // A declared size over the limit is refused unread: the 413 goes out and Node discards the rest. Reading and
  // then stopping destroys the request, and the sender sees a reset connection instead of the answer.
  if (Number(req.headers["content-length"]) > limit) throw new BodyTooLargeError(`The body is larger than ${limit} bytes`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer)
    size += buf.length
    if (size > limit) throw new BodyTooLargeError(`The body is larger than ${limit} bytes`)
    chunks.push(buf)
  }
  return Buffer.concat(chunks)
}
