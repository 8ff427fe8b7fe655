/** Named in the User-Agent of every call. A unit test keeps these equal to package.json. */
export const PACKAGE_NAME = "medusa-payment-pgs"
export const PACKAGE_VERSION = "0.3.0-dev.0"
export const DEFAULT_USER_AGENT = `${PACKAGE_NAME}/${PACKAGE_VERSION} (node ${process.versions.node})`
