/**
 * Browser behaviours that need the plain store, under one Medusa boot, one Chromium and one signed-in dashboard
 * (a boot costs 15–17 s of CPU, a Chromium and the dashboard's sign-in a few more).
 */
import { pgsStoreSuites, storeBody, type StoreSuite } from "../http/support/store"
import { startDashboard, type Dashboard } from "./admin-support"
import { hasChromium } from "./support"

/** One behaviour in Chromium: its describe's name, and its tests given the store and the dashboard. */
export type BrowserBody = { name: string; body: (s: StoreSuite, d: Dashboard) => void; dashboardPage: boolean }
/** `dashboardPage: false`: the behaviour opens its own pages in `d.browser` (a shopper's), not a signed-in dashboard page per test. */
export const browserBody = (name: string, body: (s: StoreSuite, d: Dashboard) => void, options: { dashboardPage?: boolean } = {}): BrowserBody => ({
  name,
  body,
  dashboardPage: options.dashboardPage ?? true,
})

/**
 * One Medusa boot, one Chromium and one signed-in dashboard for several behaviours (`pgsStoreSuites`): each keeps
 * its describe, and the admin is signed in in the first behaviour's `beforeAll` that runs (each has one, the later
 * ones find it done), before the runner's snapshot, so the admin survives every restore.
 * Chromium and the dashboard's server are closed after the whole suite. Call it inside `describeBrowser`.
 */
export function browserStoreSuites(bodies: BrowserBody[], options: Parameters<typeof pgsStoreSuites>[1] & { chromiumArgs?: string[] } = {}) {
  const { chromiumArgs, ...storeOptions } = options
  const dashboard = hasChromium ? startDashboard(chromiumArgs) : undefined // skipped without Chromium: nothing to start
  dashboard?.closeAfterAll()
  const d = dashboard?.d ?? ({} as Dashboard)
  return pgsStoreSuites(
    bodies.map(({ name, body, dashboardPage }) =>
      storeBody(name, (s) => {
        dashboard?.signIn(s)
        if (dashboard && dashboardPage) dashboard.pageForEachTest()
        body(s, d)
      }),
    ),
    storeOptions,
  )
}
