/**
 * The Medusa dashboard with our extension, in Chromium, against the store the HTTP suites boot. The test runner
 * always disables the admin (it forces `admin.disable`), so the suite builds the dashboard with Medusa's own
 * bundler (@medusajs/admin-bundler, as `medusa build` does; ≈50 s on 2 cores, cached by the extension's content)
 * and serves it at /app from a small server that forwards every other path to the store: one origin, as when
 * Medusa serves its admin, so the dashboard's session cookie works unchanged.
 */
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs"
import http from "node:http"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core"
import type { StoreSuite } from "../http/support/store"
import { CHROMIUM, hasChromium } from "./support"

const ROOT = path.join(__dirname, "../..")
const ADMIN_SRC = path.join(ROOT, "src/admin")

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]))
}

/** The built dashboard for the current src/admin: reused while the extension and the bundler are unchanged. */
export async function buildAdmin(): Promise<string> {
  // What Medusa's admin loader passes for a project whose extension lives in src/admin (no packaged plugins).
  const options = { path: "/app", sources: [ADMIN_SRC], plugins: [], backendUrl: "/" }
  const hash = createHash("sha256").update(JSON.stringify(options))
  hash.update(readFileSync(path.join(ROOT, "node_modules/@medusajs/admin-bundler/package.json")))
  for (const file of filesUnder(ADMIN_SRC).sort()) hash.update(file).update(readFileSync(file))
  const outDir = path.join(ROOT, ".medusa/pgs-admin-test", hash.digest("hex").slice(0, 16))
  const built = () => existsSync(path.join(outDir, "index.html"))
  if (built()) return outDir
  // Another suite (jest runs several workers) building the same dashboard: wait for its build, not a second one
  // on the same cores.
  if (await otherBuildFinishes(outDir, built)) return outDir
  // Built beside it and renamed into place: two suites building at once must not empty the folder the other
  // already serves (vite empties its outDir first).
  const building = `${outDir}.building-${process.pid}`
  // A child process: the bundler (vite) is ESM and the runner's jest environment is not the place for a build.
  // Not execFileSync: the jest worker keeps serving the store's boot and the browser meanwhile.
  const script = `import { build } from "@medusajs/admin-bundler"
await build({ ...${JSON.stringify(options)}, outDir: ${JSON.stringify(building)} })`
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } })
    child.on("error", reject)
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the dashboard's build exited with ${code}`))))
  })
  if (built()) rmSync(building, { recursive: true, force: true })
  else renameSync(building, outDir)
  // Only the current build is kept (each is ≈11 MB); another suite's build in progress is left alone.
  for (const old of readdirSync(path.dirname(outDir)))
    if (!old.startsWith(path.basename(outDir))) rmSync(path.join(path.dirname(outDir), old), { recursive: true, force: true })
  return outDir
}

/** Whether a live process's build of `outDir` (its `.building-<pid>` folder) ends with the dashboard in place. */
async function otherBuildFinishes(outDir: string, built: () => boolean): Promise<boolean> {
  const alive = () =>
    existsSync(path.dirname(outDir)) &&
    readdirSync(path.dirname(outDir)).some((name) => {
      const pid = Number(name.startsWith(`${path.basename(outDir)}.building-`) && name.split("-").pop())
      if (!pid || pid === process.pid) return false
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false // a build left behind by a process that died
      }
    })
  const deadline = Date.now() + 300_000
  while (alive() && !built() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500))
  return built()
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
}

/** Serves the dashboard at /app (index.html for its client-side routes) and forwards everything else to Medusa. */
export async function serveAdmin(outDir: string, medusaUrl: string) {
  const target = new URL(medusaUrl)
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://admin.local")
    if (url.pathname === "/app" || url.pathname.startsWith("/app/")) {
      const file = path.join(outDir, decodeURIComponent(url.pathname.slice("/app".length)))
      const isFile = file.startsWith(outDir) && existsSync(file) && statSync(file).isFile()
      const chosen = isFile ? file : path.join(outDir, "index.html")
      res.writeHead(200, { "content-type": TYPES[path.extname(chosen)] ?? "application/octet-stream" })
      res.end(readFileSync(chosen))
      return
    }
    const headers = { ...req.headers, host: target.host }
    const upstream = http.request({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on("error", (error) => res.writeHead(502).end(String(error)))
    req.pipe(upstream)
  })
  await new Promise<void>((r) => server.listen(0, "localhost", () => r()))
  const { port } = server.address() as AddressInfo
  return { url: `http://localhost:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

/** An admin user who signs in with email and password, made the way `medusa user -e -p` makes one. */
export async function createAdminUser(container: MedusaContainer) {
  const email = `admin-${Date.now().toString(36)}@example.com`
  const password = "correct horse battery staple"
  const [user] = await container.resolve(Modules.USER).createUsers([{ email, first_name: "Ada", last_name: "Admin" }])
  const auth = container.resolve(Modules.AUTH)
  const { authIdentity, error } = await auth.register("emailpass", { body: { email, password } } as any)
  if (error || !authIdentity) throw new Error(`admin user: ${error}`)
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: user!.id } })
  return { email, password }
}

// Medusa's development dashboard compiles its modules on a server's first page (15–158 s seen on the 2-core
// machine with other suites beside it; one timed out at 150 s): a deadline, not a wait.
const FIRST_LOAD_MS = 300_000

/** `extraArgs`: flags a suite's other pages need (a shopper's page served by interception: LOCAL_NETWORK_AS_PUBLIC). */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...extraArgs],
  })
}

/**
 * A page served by request interception counts as public for Chromium's Local Network Access, so its calls to the
 * store on loopback would be refused; a real storefront and store share a network (the widget suites' flag too).
 */
export const LOCAL_NETWORK_AS_PUBLIC = "--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults"

/**
 * Signs in on the dashboard's login page and waits until the dashboard has loaded. The first load may be long: a
 * dashboard served in development (the demo) compiles its modules then, and on a 2-core CI machine that took over
 * 30 s (Playwright's default) twice, once for the page and once for its form to appear; a built dashboard loads in
 * about a second either way.
 */
export async function signIn(browser: Browser, adminUrl: string, user: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: "en-US" })
  const page = await context.newPage()
  // The page's HTML comes first; its form appears once the modules compiled (the first load's time, not goto's).
  await page.goto(`${adminUrl}/app/login`, { timeout: FIRST_LOAD_MS })
  await page.locator('input[name="email"]').fill(user.email, { timeout: FIRST_LOAD_MS })
  await page.locator('input[name="password"]').fill(user.password)
  await page.locator('button[type="submit"]').click()
  await page.waitForURL((u) => !u.pathname.startsWith("/app/login"), { timeout: 60_000 })
  return page
}

/** The dashboard for a test: a fresh page signed in as the suite's admin, its server's URL, and the Chromium it runs in. */
export type Dashboard = { page: Page; url: string; browser: Browser }

/**
 * The dashboard beside a suite's store: the build and Chromium start as the suite loads, before the store's boot
 * (neither needs the store). `signIn` makes one admin and signs in once, in a `beforeAll`: that runs before the
 * runner's snapshot, so the user survives the database restore before each test, and the session lives in Medusa's
 * memory, not the database. `pageForEachTest` gives each test a new browser context from the signed-in state
 * (cookies and storage as sign-in left them). `closeAfterAll` closes Chromium and the server where it is called.
 */
export function startDashboard(chromiumArgs: string[] = []) {
  const d = {} as Dashboard
  let server: Awaited<ReturnType<typeof serveAdmin>> | undefined
  let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>
  let signingIn: Promise<void> | undefined
  const built = buildAdmin()
  const launched = launchChromium(chromiumArgs)
  // Awaited in beforeAll; until then a failure must not count as unhandled.
  built.catch(() => undefined)
  launched.catch(() => undefined)
  return {
    d,
    /** In each describe that uses it: the first to run signs in (with `-t`, jest runs no hook of a describe it skips). */
    signIn(s: StoreSuite) {
      beforeAll(() => (signingIn ??= (async () => {
        d.browser = await launched
        server = await serveAdmin(await built, s.medusaUrl)
        d.url = server.url
        const page = await signIn(d.browser, d.url, await createAdminUser(s.container()))
        signedIn = await page.context().storageState()
        await page.context().close()
      })()), 300_000)
    },
    closeAfterAll() {
      afterAll(async () => {
        await (d.browser ?? (await launched.catch(() => undefined)))?.close()
        await server?.close()
      })
    },
    pageForEachTest() {
      beforeEach(async () => {
        const context = await d.browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: "en-US", storageState: signedIn })
        d.page = await context.newPage()
      })
      afterEach(async () => {
        await d.page?.context().close()
      })
    },
  }
}

/**
 * The dashboard beside the suite's store for the whole suite, and a fresh page for each test, signed in as one
 * admin (`startDashboard`). Read `page` and `url` inside the tests.
 */
export function dashboardForEachTest(s: StoreSuite): Dashboard {
  if (!hasChromium) return {} as Dashboard // the suite is skipped (describeBrowser): nothing to build or launch
  const dashboard = startDashboard()
  dashboard.signIn(s)
  dashboard.closeAfterAll()
  dashboard.pageForEachTest()
  return dashboard.d
}

/**
 * Rules left out where axe checks the admin extension: the dashboard's own colour tokens, which the extension
 * follows to look like the rest of Medusa's admin.
 */
export const MEDUSA_TOKENS = {
  "color-contrast": "Medusa's links (text-ui-fg-interactive) and secondary text (text-ui-fg-muted) are under 4.5:1 throughout its dashboard; ours use the same tokens",
}

/** Medusa UI's search input draws its magnifier as an unnamed role="img" beside the input (the payouts page's reference search). */
export const MEDUSA_SEARCH_ICON = '#pgs-payouts-reference + [role="img"]'
