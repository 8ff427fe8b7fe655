/**
 * `npm run demo`, as a store developer meets it: boots headless (its own database on the test PostgreSQL, free
 * ports), a shopper buys one thing by card and one by a redirect method through the demo storefront in Chromium,
 * and Ctrl-C stops everything.
 */
import { spawn, type ChildProcess } from "node:child_process"
import path from "node:path"
import { chromium, type Browser, type Page } from "playwright-core"
import { CHROMIUM, describeBrowser, screenshot } from "./support"

jest.setTimeout(600_000)

const ROOT = path.join(__dirname, "../..")

type Demo = { child: ChildProcess; output: () => string; storefront: string; admin: string; sandbox: string }

/** Starts the demo and waits for its "ready" block; the URLs come from what it prints. */
function startDemo(): Promise<Demo> {
  const db = `postgres://${process.env.DB_USERNAME || "postgres"}:${process.env.DB_PASSWORD || ""}@${process.env.DB_HOST || "localhost"}:${process.env.DB_PORT || 5432}/pgs_demo_test_${process.pid}`
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/demo/index.ts", "--reset", "--quiet", "--port", "0", "--storefront-port", "0", "--sandbox-port", "0"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db, NODE_OPTIONS: "" },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: a Ctrl-C reaches the demo and everything it started, as in a terminal.
    detached: true,
  })
  let output = ""
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString()
      const ready = /\[demo\] ready[\s\S]*storefront\s+(\S+)[\s\S]*admin\s+(\S+)[\s\S]*sandbox\s+(\S+)[\s\S]*Ctrl-C/.exec(output)
      if (ready) resolve({ child, output: () => output, storefront: ready[1]!, admin: ready[2]!, sandbox: ready[3]! })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`the demo exited with ${code} before it was ready:\n${output.slice(-3000)}`)))
  })
}

describeBrowser("npm run demo", () => {
  let demo: Demo
  let browser: Browser

  beforeAll(async () => {
    demo = await startDemo()
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    })
  })
  afterAll(async () => {
    await browser?.close()
    if (demo && demo.child.exitCode === null) {
      const exited = new Promise((resolve) => demo.child.once("exit", resolve))
      process.kill(-demo.child.pid!, "SIGINT")
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))])
      if (demo.child.exitCode === null) process.kill(-demo.child.pid!, "SIGKILL")
    }
  })

  /** Home → region → Buy → checkout address → the widget's payment step. */
  async function toPayment(page: Page, region: string) {
    await page.goto(demo.storefront)
    await page.getByLabel("Region").selectOption({ label: region })
    await page.getByRole("button", { name: "Buy" }).first().click()
    await page.waitForURL(/\/checkout$/)
    await page.getByRole("button", { name: "Continue to payment" }).click()
    await page.getByRole("radio", { name: "Card", exact: true }).waitFor({ timeout: 30_000 })
  }

  it("prints the storefront, admin (with its login) and sandbox URLs and the test cards", () => {
    expect(demo.output()).toMatch(/admin\s+http:\/\/localhost:\d+\/app\s+\(admin@pgs\.demo \/ pgs-demo-admin\)/)
    expect(demo.output()).toContain("4000000000001000  frictionless_approved")
  })

  it("sells by card through the demo storefront and shows the order", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await toPayment(page, "Europe (EUR)")
    const frame = page.frameLocator(".pgs-card iframe")
    await frame.locator("#in-holderName").fill("Ada Lovelace")
    await frame.locator("#in-cardNumber").fill("4000000000001000")
    await frame.locator("#in-expirationDate").fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`)
    await frame.locator("#in-cvv").fill("123")
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await page.waitForURL(/\/order\/order_/, { timeout: 60_000 })
    await page.locator("[data-payment-status]").waitFor()
    expect(await page.locator("[data-payment-status]").textContent()).toBe("authorized")
    await screenshot(page, "demo-card-order")
    await context.close()
  })

  it("sells by a redirect method: the sandbox provider page approves, the return page shows the order", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await toPayment(page, "Europe (EUR)")
    await page.locator('input[value="pp_pgs-open-banking_pgs"]').check()
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await page.waitForURL(/\/provider\//)
    await page.getByRole("button", { name: "Approve" }).click()
    await page.waitForURL(/\/checkout\/return/)
    await page.waitForURL(/\/order\/order_/, { timeout: 60_000 })
    await page.locator("[data-payment-status]").waitFor()
    expect(await page.locator("[data-payment-status]").textContent()).toBe("captured")
    await screenshot(page, "demo-redirect-order")
    await context.close()
  })

  it("stops everything on Ctrl-C", async () => {
    const exited = new Promise<number | null>((resolve) => demo.child.once("exit", (code) => resolve(code)))
    process.kill(-demo.child.pid!, "SIGINT") // the whole group, as Ctrl-C in a terminal does
    expect(await exited).toBe(0)
    expect(demo.output()).toContain("[demo] stopping")
  })
})
