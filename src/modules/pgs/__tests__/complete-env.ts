/** PGS_* variables of a store whose required options are all set (for tests of the optional ones). */
export const COMPLETE_ENV = {
  PGS_API_URL: "http://gateway.test",
  PGS_AUTH_URL: "http://auth.test",
  PGS_REALM: "uat",
  PGS_CLIENT_ID: "id",
  PGS_CLIENT_SECRET: "secret",
  PGS_CLIENT_KEY: "key",
  PGS_TERMINAL_ID: "TERM-001",
  PGS_STORE_URL: "http://shop.test",
  PGS_BACKEND_URL: "http://store.test",
}
