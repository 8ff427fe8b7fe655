/**
 * README and docs/ tell the truth about where things are: every relative link resolves (to a file, and to a
 * heading when it names one), and every `npm run X` a page names is a script of the package the page describes.
 * README stays a front page; each docs page opens with its reader.
 */
import fs from "node:fs"
import path from "node:path"

const ROOT = path.join(__dirname, "../..")
const PAGES = ["README.md", "FRAMEWORK-NOTES.md", "storefront-widget/README.md", ...fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)]

/** Markdown without its fenced code blocks (a link or command in an example is not a claim about this repository). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "")

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-")

const anchorsOf = (file: string) => new Set([...prose(fs.readFileSync(file, "utf8")).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)))

function relativeLinks(page: string): Array<{ target: string; anchor: string | null }> {
  const text = prose(fs.readFileSync(path.join(ROOT, page), "utf8"))
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => {
      const [file, anchor] = href.split("#") as [string, string | undefined]
      return { target: file ? path.join(path.dirname(page), file) : page, anchor: anchor ?? null }
    })
}

describe("README and docs/", () => {
  it("has a front page short enough to read in five minutes (at most 250 lines)", () => {
    expect(fs.readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(250)
  })

  it.each(PAGES)("%s: every relative link resolves, to its heading too", (page) => {
    const broken: string[] = []
    for (const { target, anchor } of relativeLinks(page)) {
      const file = path.join(ROOT, target)
      if (!fs.existsSync(file)) broken.push(`${target} (no such file)`)
      else if (anchor && target.endsWith(".md") && !anchorsOf(file).has(anchor)) broken.push(`${target}#${anchor} (no such heading)`)
    }
    expect(broken).toEqual([])
  })

  it.each(PAGES)("%s: every `npm run` script it names exists", (page) => {
    // The widget's README also names this repository's scripts (its bench runs from the root).
    const pkgs = page.startsWith("storefront-widget/") ? ["storefront-widget/package.json", "package.json"] : ["package.json"]
    const scripts = pkgs.flatMap((pkg) => Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, pkg), "utf8")).scripts))
    const text = fs.readFileSync(path.join(ROOT, page), "utf8")
    const named = [...text.matchAll(/npm run ([\w:.-]+)/g)].map((m) => m[1]!)
    expect(named.filter((s) => !scripts.includes(s))).toEqual([])
  })

  it("starts every docs page with who it is for and what they can do after reading", () => {
    const missing = PAGES.filter((p) => p.startsWith("docs/")).filter((p) => !/^# .+\n\n> For /.test(fs.readFileSync(path.join(ROOT, p), "utf8")))
    expect(missing).toEqual([])
  })

  it("finds a broken link when there is one (the check itself works)", () => {
    expect(slug("Alternative methods, redirects and the hosted payment page")).toBe("alternative-methods-redirects-and-the-hosted-payment-page")
    expect(slug("The PGS client (`src/gateway`)")).toBe("the-pgs-client-srcgateway")
  })
})
