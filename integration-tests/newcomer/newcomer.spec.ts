/**
 * A store developer's first hour, by README alone: pack both packages (packed.ts: once per content of the tree on
 * this machine, shared with the upgrade suite), make a fresh Medusa project shaped like
 * Medusa's starter (its own package.json, tsconfig, .env and database), run README's marked install, sandbox,
 * medusa-config and run steps in it, check that TypeScript finds every entry point's types, and buy by card
 * through the packed widget in Chromium; the gateway's webhook reaches the store and is applied.
 * Slow by nature (an npm install of Medusa, its migrations, a boot): one project per Medusa version, each on one of
 * the Node LTS releases stores run (the packages are packed on the Node running jest). The projects are set up side
 * by side, and each starter's own `npm install` runs while the packages are packed: the steps that wait on the
 * network and the disk overlap the ones that keep a core busy.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { chromium, type Browser } from "playwright-core"
import { dropDatabase, ensureExists, seededPublishableKey } from "../../scripts/demo/database"
import { startStorefront, type RunningStorefront } from "../../scripts/demo/storefront"
import { waitFor } from "../support/sandbox"
import { CHROMIUM, demoStorefrontPayByCard, demoStorefrontToPayment, describeBrowser, screenshot } from "../browser/support"
import { freePort } from "../../scripts/demo/flags"
import { answers, commands, npmEnv, readmeBlock, removeTreeInBackground, ROOT, run, shellEnv, startBackground, stopBackground, writeStarterBackend, type Background } from "./project"
import { packedTree, README_PACKAGES } from "./packed"
import { executablesOf, nodeRuntime, onNode, type NodeRuntime } from "./node-runtime"

jest.setTimeout(1_200_000)

/**
 * The Medusa versions README promises, each in its own project on a Node LTS release (README says which is tested
 * where): the newest Medusa on the newest LTS, dtc-starter's pinned Medusa on the older one.
 */
const STORES = [
  { medusa: "2.21.2", node: "24.22.3" },
  { medusa: "2.18.0", node: "22.23.5" },
]

const work = fs.mkdtempSync(path.join(os.tmpdir(), "pgs-newcomer-"))
/** The tarballs of this tree, packed by README's pack block (packed.ts: once per content of the tree, shared). */
let packages = ""
/** README's commands with the tarball folder of this run. */
const here = (command: string) => command.split(README_PACKAGES).join(packages)
const installLine = (where: "backend" | "storefront") => {
  const line = readmeBlock("install").split("\n").find((l) => l.includes(`# in the ${where}`))
  if (!line) throw new Error(`README's install block has no "# in the ${where}" line`)
  return here(commands(line)[0])
}

let packed: Promise<void>
const stores = new Map<string, Store>()

beforeAll(async () => {
  packed = packedTree().then((folder) => void (packages = folder))
  for (const { medusa, node } of STORES) stores.set(medusa, setUpStore(medusa, node, packed))
  await packed
}, 300_000)

// Both stores' projects (some 200,000 files), removed after the suite without holding its worker.
afterAll(() => removeTreeInBackground(work))

/**
 * The relative targets a Markdown page links to, anchors cut off: [text](path), ![alt](path), [text](<path> "title"),
 * reference definitions ([name]: path) and HTML src/href; not what code blocks show, not addresses with a scheme.
 */
function relativeLinks(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, "")
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/g)].map((m) => m[1]!),
  ]
  return targets.map((t) => t.split("#")[0]!).filter((t) => t && !/^[a-z][a-z0-9+.-]*:/i.test(t))
}

describe("the packed tarballs", () => {
  const contents = async (name: string) => (await run(`tar tzf ${name}`, packages)).split("\n").filter(Boolean)
  const tarball = (prefix: string) => fs.readdirSync(packages).find((f) => new RegExp(`^${prefix}-\\d`).test(f))!

  it.each(["medusa-payment-pgs", "medusa-payment-pgs-storefront"])("%s holds a LICENSE, no tests, keys or env files", async (name) => {
    const files = await contents(tarball(name))
    expect(files).toContain("package/LICENSE")
    expect(files.filter((f) => /(__tests__|\.spec\.|\.test\.|\.env|\.pem$|\.pgs-sandbox|\.demo\/)/.test(f))).toEqual([])
  })

  it.each([
    ["medusa-payment-pgs", ["docs/widget.md", "examples/dtc-starter/README.md"]],
    ["medusa-payment-pgs-storefront", []],
  ])("%s holds every page and file its Markdown links to, so they open from node_modules", async (name, someFromReadme) => {
    const files = await contents(tarball(name))
    const pages = files.filter((f) => f.endsWith(".md"))
    const broken: string[] = []
    for (const page of pages) {
      const links = relativeLinks(await run(`tar xzOf ${tarball(name)} '${page}'`, packages))
      if (page === "package/README.md") expect(links).toEqual(expect.arrayContaining(someFromReadme))
      for (const link of links) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(page), link)).replace(/\/$/, "")
        if (!files.some((f) => f === target || f.startsWith(`${target}/`))) broken.push(`${page} → ${link}`)
      }
    }
    expect(pages).toContain("package/README.md")
    expect(broken).toEqual([])
  })

  it.each(["medusa-payment-pgs", "medusa-payment-pgs-storefront"])("%s has a declaration file for every entry point it exports", async (name) => {
    const files = new Set(await contents(tarball(name)))
    const pkg = JSON.parse((await run(`tar xzOf ${tarball(name)} package/package.json`, packages)).trim())
    const typed = Object.entries(pkg.exports as Record<string, unknown>).flatMap(([entry, target]) =>
      typeof target === "object" && target && "types" in target ? [[entry, (target as { types: string }).types] as const] : [],
    )
    expect(typed.length).toBeGreaterThan(1)
    for (const [entry, types] of typed) {
      if (types.includes("*")) continue // patterns: the named entries below stand for them
      expect([entry, files.has(`package/${types.replace(/^\.\//, "")}`)]).toEqual([entry, true])
    }
  })
})

/** A backend shaped like dtc-starter's apps/backend (project.ts), with its .env, README's medusa-config and a seed. */
function createBackend(dir: string, version: string, env: Record<string, string>) {
  writeStarterBackend(dir, "newcomer-backend", version)
  fs.writeFileSync(path.join(dir, ".env"), Object.entries(env).map(([k, v]) => `${k}=${v}`).join("\n") + "\n")
  fs.writeFileSync(path.join(dir, "medusa-config.ts"), readmeBlock("medusa-config.ts"))
  // The demo's catalogue: regions with the PGS providers enabled, products, a publishable key.
  fs.copyFileSync(path.join(ROOT, "scripts/demo/seed.ts"), path.join(dir, "src/scripts/seed.ts"))
  // Every entry point a backend imports, used as a developer would: the types must resolve from the tarball.
  fs.writeFileSync(
    path.join(dir, "src/scripts/pgs-types.ts"),
    `import { pgsOptionsFromEnv } from "medusa-payment-pgs/config"
import { PgsClient, toMinorUnits } from "medusa-payment-pgs/gateway"
import { startSandbox } from "medusa-payment-pgs/sandbox"
import * as workflows from "medusa-payment-pgs/workflows"
import provider from "medusa-payment-pgs/providers/pgs"

export const minor: number = toMinorUnits("12.50", "EUR")
export const options = pgsOptionsFromEnv({ PGS_REALM: "uat" })
export const parts = [PgsClient, startSandbox, workflows, provider]
`,
  )
}

/**
 * A storefront folder with the widget installed from its tarball, and a page that uses its four entry points in TSX,
 * typechecked with each module resolution a storefront may use: "bundler" (Next.js), "node" (dtc-starter) and "nodenext"
 * (an ESM project on Node's own rules, where a declaration's relative import must name its file).
 */
function createStorefront(dir: string) {
  fs.mkdirSync(path.join(dir, "src"), { recursive: true })
  // What the page below needs besides the widget: TypeScript and React's types. An ESM project ("type": "module"):
  // "nodenext" reads the page as ESM, as it would a store's; "bundler" and "node" do not look at it.
  const pkg = { name: "newcomer-storefront", private: true, type: "module", devDependencies: { typescript: "^5.6.2", "@types/react": "^18.3.0" } }
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2))
  const tsconfig = { compilerOptions: { target: "ES2017", lib: ["dom", "esnext"], module: "esnext", moduleResolution: "bundler", jsx: "react-jsx", strict: true, noEmit: true, skipLibCheck: true }, include: ["src"] }
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2))
  // dtc-starter's storefront resolves modules the older way ("node"), which ignores package exports.
  fs.writeFileSync(path.join(dir, "tsconfig.node.json"), JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, moduleResolution: "node" } }, null, 2))
  const nodenext = { ...tsconfig.compilerOptions, module: "nodenext", moduleResolution: "nodenext" }
  fs.writeFileSync(path.join(dir, "tsconfig.nodenext.json"), JSON.stringify({ ...tsconfig, compilerOptions: nodenext }, null, 2))
  fs.writeFileSync(
    path.join(dir, "src/payment.tsx"),
    `import { isPgsProvider, mountCheckout, pgsProviderInfo } from "medusa-payment-pgs-storefront"
import { mountCollectionPayment } from "medusa-payment-pgs-storefront/collection"
import { PgsCheckout, PgsReturn } from "medusa-payment-pgs-storefront/react"
import { PgsCollectionPayment } from "medusa-payment-pgs-storefront/react/collection"

export const title: string | undefined = isPgsProvider("pp_pgs_pgs") ? pgsProviderInfo("pp_pgs_pgs")?.title : undefined
export const mount = () => mountCheckout("#payment", { baseUrl: "http://localhost:9000", publishableKey: "pk", cartId: "cart_1" })
export function Payment({ cartId }: { cartId: string }) {
  return <PgsCheckout baseUrl="http://localhost:9000" publishableKey="pk" cartId={cartId} onOrder={(order) => console.log(order.id)} />
}
export const Return = () => <PgsReturn baseUrl="http://localhost:9000" publishableKey="pk" checkoutUrl="/checkout" />
export const payLink = (collectionId: string) => mountCollectionPayment("#payment", { baseUrl: "http://localhost:9000", publishableKey: "pk", collectionId })
export const PayLink = ({ collectionId }: { collectionId: string }) => (
  <PgsCollectionPayment baseUrl="http://localhost:9000" publishableKey="pk" collectionId={collectionId} onPaid={(paid) => console.log(paid.status)} />
)
// Typed, not any (what skipLibCheck makes of a declaration whose imports do not resolve): a call without options is an error.
// @ts-expect-error mountCheckout takes the options
export const untyped = () => mountCheckout("#payment")
`,
  )
}

/** One store's project and processes; filled in as its setup gets there, so teardown stops whatever started. */
type Store = {
  project: string
  backend: string
  storefront: string
  database: string
  medusaUrl: string
  sandboxUrl: string
  storefrontPort: number
  runtime?: NodeRuntime
  sandbox?: Background
  medusa?: Background
  /** Settles when the store answers and the storefront folder has the widget; rejects with the step that failed. */
  ready: Promise<void>
}

/**
 * Sets up a Medusa `version` store on Node `node` by README: the starter's own install first (as a developer has it
 * before reading README), then, once `packed`, README's install, sandbox and run steps.
 */
function setUpStore(version: string, node: string, packed: Promise<void>): Store {
  const project = path.join(work, `medusa-${version}`)
  const store: Store = {
    project,
    backend: path.join(project, "backend"),
    storefront: path.join(project, "storefront"),
    database: `postgres://${process.env.DB_USERNAME || "postgres"}:${process.env.DB_PASSWORD || ""}@${process.env.DB_HOST || "localhost"}:${process.env.DB_PORT || 5432}/pgs_newcomer_${version.replace(/\W/g, "_")}_${process.pid}`,
    medusaUrl: "",
    sandboxUrl: "",
    storefrontPort: 0,
    ready: Promise.resolve(),
  }
  const { backend, storefront, database } = store
  store.ready = (async () => {
    const medusaPort = await freePort(0)
    store.storefrontPort = await freePort(0)
    const medusaUrl = (store.medusaUrl = `http://localhost:${medusaPort}`)
    const storefrontOrigin = `http://localhost:${store.storefrontPort}`
    // The starter's .env.template, with this run's database, ports and storefront origin.
    createBackend(backend, version, {
      STORE_CORS: storefrontOrigin,
      ADMIN_CORS: medusaUrl,
      AUTH_CORS: `${storefrontOrigin},${medusaUrl}`,
      JWT_SECRET: "supersecret",
      COOKIE_SECRET: "supersecret",
      DATABASE_URL: database,
      PGS_STORE_URL: storefrontOrigin,
      PGS_BACKEND_URL: medusaUrl,
    })
    createStorefront(storefront)
    const runtime = (store.runtime = await nodeRuntime(node, npmEnv()))
    const npm = onNode(runtime, npmEnv())
    const shell = onNode(runtime)
    await dropDatabase(database)
    await ensureExists(database) // the starter's own setup step (db:setup / create-medusa-app) made it
    const storefrontReady = (async () => {
      await run("npm install", storefront, npm)
      await packed
      await run(installLine("storefront"), storefront, npm)
    })()
    storefrontReady.catch(() => undefined) // awaited below, after the backend's steps
    await run("npm install", backend, npm)
    await packed
    await run(installLine("backend"), backend, npm)
    const [sandboxCommand] = commands(readmeBlock("sandbox"))
    store.sandbox = await startBackground(`${sandboxCommand} --port ${await freePort(0)}`, backend, /listening on http:\/\/\S+/, 60_000, shell)
    store.sandboxUrl = /listening on (http:\/\/\S+)/.exec(store.sandbox.output())![1]
    const [migrate, develop] = commands(readmeBlock("run"))
    await run(migrate, backend, shell)
    await run("npx medusa exec ./src/scripts/seed.ts", backend, shell)
    await run("npx medusa user -e admin@newcomer.test -p newcomer-pass", backend, shell)
    store.medusa = await startBackground(`${develop} --port ${medusaPort}`, backend, answers(`${medusaUrl}/health`), 180_000, shell)
    await storefrontReady
  })()
  store.ready.catch(() => undefined) // the store's describe block reports it
  return store
}

describe.each(STORES)("a new Medusa $medusa store on Node $node, set up by README alone", ({ medusa: version, node }) => {
  let backend = ""
  let storefront = ""
  let database = ""
  let medusa: Background | undefined
  let shop: RunningStorefront | undefined
  let medusaUrl = ""
  let sandboxUrl = ""
  let storefrontPort = 0
  let shell: NodeJS.ProcessEnv = shellEnv()

  beforeAll(async () => {
    const store = stores.get(version)!
    ;({ backend, storefront, database } = store)
    await store.ready
    ;({ medusa, medusaUrl, sandboxUrl, storefrontPort } = store)
    shell = onNode(store.runtime!)
  }, 1_200_000)

  afterAll(async () => {
    const store = stores.get(version)
    await shop?.close()
    await store?.ready.catch(() => undefined) // a setup still under way leaves nothing running behind
    await stopBackground(store?.medusa)
    await stopBackground(store?.sandbox)
    await dropDatabase(database).catch(() => undefined)
  }, 60_000)

  it(`runs on Node ${node} (installed with it first on PATH): the sandbox and the store are that binary`, () => {
    const store = stores.get(version)!
    for (const background of [store.sandbox!, store.medusa!]) {
      const nodes = executablesOf(background.child.pid!).filter((exe) => path.basename(exe) === "node")
      expect(nodes).toEqual([store.runtime!.binary])
    }
  })

  it("has written every PGS_* variable into .env and boots with them", () => {
    const env = fs.readFileSync(path.join(backend, ".env"), "utf8")
    for (const name of ["PGS_API_URL", "PGS_CLIENT_SECRET", "PGS_CLIENT_KEY", "PGS_MERCHANT_PUBLIC_KEY", "PGS_WEBHOOK_PUBLIC_KEY", "PGS_TERMINAL_ID"]) {
      expect(env).toMatch(new RegExp(`^${name}=.+`, "m"))
    }
    expect(env).toContain(`PGS_BACKEND_URL=${medusaUrl}`) // a value the developer set is kept
    expect(medusa!.output()).not.toMatch(/invalid provider options|medusa-payment-pgs: /)
  })

  it("finds the type declarations of every entry point of both packages", async () => {
    await Promise.all([
      run("npx tsc --noEmit -p .", backend, shell),
      run("npx tsc --noEmit -p .", storefront, shell),
      run("npx tsc --noEmit -p tsconfig.node.json", storefront, shell),
      run("npx tsc --noEmit -p tsconfig.nodenext.json", storefront, shell),
    ])
  })

  it("registers the PGS providers, so a shop admin can enable them on a region", async () => {
    const login = await fetch(`${medusaUrl}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@newcomer.test", password: "newcomer-pass" }),
    })
    const { token } = (await login.json()) as { token: string }
    const res = await fetch(`${medusaUrl}/admin/payments/payment-providers?limit=100`, { headers: { authorization: `Bearer ${token}` } })
    const ids = ((await res.json()) as { payment_providers: { id: string }[] }).payment_providers.map((p) => p.id)
    expect(ids).toEqual(expect.arrayContaining(["pp_pgs_pgs", "pp_pgs-hosted_pgs", "pp_pgs-open-banking_pgs"]))
  })

  describeBrowser("in Chromium, through the packed widget", () => {
    let browser: Browser
    beforeAll(async () => {
      const publishableKey = await seededPublishableKey(database)
      shop = await startStorefront({
        port: storefrontPort,
        medusaUrl,
        publishableKey: publishableKey!,
        widgetDir: path.join(storefront, "node_modules/medusa-payment-pgs-storefront/dist"),
      })
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] })
    })
    afterAll(() => browser?.close())

    it("sells by card, and the gateway's webhook reaches the store and is applied", async () => {
      const page = await browser.newPage()
      await demoStorefrontToPayment(page, shop!.url, "Europe (EUR)")
      await demoStorefrontPayByCard(page, "4000000000001000")
      expect(await page.locator("[data-payment-status]").textContent()).toBe("authorized")
      await screenshot(page, `newcomer-${version}-card-order`)
      const orderId = /\/order\/(order_\w+)/.exec(page.url())![1]

      // The sandbox signed a webhook for the payment and the store answered 200 ...
      const delivered = await waitFor(
        async () => {
          const res = await fetch(`${sandboxUrl}/_sandbox/webhooks/deliveries`)
          const { deliveries } = (await res.json()) as { deliveries: { url: string; state: string; attempts: { status: number | null }[] }[] }
          return deliveries.find((d) => d.url === `${medusaUrl}/hooks/pgs/webhooks` && d.state === "delivered" && d.attempts.at(-1)?.status === 200)
        },
        { timeoutMs: 30_000, intervalMs: 250, what: "a webhook delivered to the new store" },
      )
      expect(delivered).toBeTruthy()
      // ... and the store recorded it against the order (the admin's gateway view lists it).
      const login = await fetch(`${medusaUrl}/auth/user/emailpass`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@newcomer.test", password: "newcomer-pass" }),
      })
      const { token } = (await login.json()) as { token: string }
      const events = await waitFor(
        async () => {
          const res = await fetch(`${medusaUrl}/admin/pgs/orders/${orderId}/gateway`, { headers: { authorization: `Bearer ${token}` } })
          const body = (await res.json()) as { payments: { events: { event: string }[] }[] }
          const all = body.payments.flatMap((p) => p.events)
          return all.length > 0 && all
        },
        { timeoutMs: 30_000, intervalMs: 250, what: "the webhook recorded against the order" },
      )
      expect(events.length).toBeGreaterThan(0)
      await page.close()
    })
  })
})
