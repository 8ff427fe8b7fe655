/**
 * A file written whole or not at all: to a temporary file beside it, flushed to disk, then renamed over the old one,
 * so a kill at any moment leaves the old file or the new one, never half of one (the state file, the credentials).
 */
import fs from "node:fs"

export function replaceFile(file: string, text: string, mode = 0o600): void {
  const temporary = `${file}.${process.pid}.tmp`
  const fd = fs.openSync(temporary, "w", mode)
  try {
    // writeFileSync on a descriptor writes until all is out (one writeSync may write part of it, e.g. on a full disk).
    fs.writeFileSync(fd, text)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(temporary, file)
}
