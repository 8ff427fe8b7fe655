// Jest's resolver, plus one fallback: a relative "./x.js" that names no file resolves to "./x" (x.ts). The storefront
// widget's sources import each other with ".js" (what TypeScript asks of ESM under node16/nodenext, so the
// declarations it publishes resolve there too); suites that import those sources reach the .ts files. Anything jest
// resolves on its own is untouched (no extra lookups on the server's and node_modules' own requires).
module.exports = (request, options) => {
  try {
    return options.defaultResolver(request, options)
  } catch (error) {
    if (!/^\.{1,2}\/.*\.js$/.test(request)) throw error
    try {
      return options.defaultResolver(request.slice(0, -3), options)
    } catch {
      throw error
    }
  }
}
