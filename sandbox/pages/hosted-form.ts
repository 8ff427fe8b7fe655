/**
 * Reading the hosted payment page's card form. The page belongs to the gateway, so the card arrives in plain
 * text here; it is checked the way a real hosted form would (Luhn, expiry not in the past, CVV unless cvv_less).
 */
import type { BrowserInfo } from "../schemas"
import type { PlainCard } from "../cards/credentials"
import type { HostedLabels } from "./hosted-labels"

export type HostedSubmission = { card: PlainCard; number_of_instalments: number | null; browser_info: BrowserInfo }
export type HostedFormError = keyof Pick<HostedLabels, "invalid_card_number" | "invalid_expiry" | "invalid_cvv" | "invalid_instalments">

const luhn = (digits: string) => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

const int = (value: string | undefined, fallback: number) => (value && /^-?\d+$/.test(value) ? Number(value) : fallback)

export function readHostedForm(
  form: Record<string, string>,
  rules: { cvv_less: boolean; instalments: boolean },
  headers: { userAgent: string; accept: string; language: string },
  now = new Date(),
): HostedSubmission | { errors: HostedFormError[] } {
  const errors: HostedFormError[] = []
  const number = (form.card_number ?? "").replace(/[\s-]/g, "")
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) errors.push("invalid_card_number")

  const month = Number(form.expiry_month)
  let year = Number(form.expiry_year)
  if (/^\d{2}$/.test(form.expiry_year ?? "")) year += 2000
  const expiryOk =
    Number.isInteger(month) && month >= 1 && month <= 12 && /^\d{2}(\d{2})?$/.test(form.expiry_year ?? "") &&
    (year > now.getFullYear() || (year === now.getFullYear() && month >= now.getMonth() + 1))
  if (!expiryOk) errors.push("invalid_expiry")

  const cvv = (form.cvv ?? "").trim()
  if (!rules.cvv_less && !/^\d{3,4}$/.test(cvv)) errors.push("invalid_cvv")

  let instalments: number | null = null
  const chosen = (form.number_of_instalments ?? "").trim()
  if (rules.instalments && chosen !== "") {
    instalments = Number(chosen)
    if (!Number.isInteger(instalments) || instalments < 1 || instalments > 6) errors.push("invalid_instalments")
  }
  if (errors.length) return { errors }

  return {
    card: { number, cvv: rules.cvv_less ? null : cvv, expiration_month: month, expiration_year: year },
    number_of_instalments: instalments,
    // The page's own script fills the screen fields; without it (plain HTTP) typical desktop values are used.
    browser_info: {
      user_agent: headers.userAgent || "unknown",
      accept_header: headers.accept || "text/html",
      java_enabled: false,
      color_depth: int(form.color_depth, 24),
      screen_height: int(form.screen_height, 1080),
      screen_width: int(form.screen_width, 1920),
      time_zone_offset: int(form.time_zone_offset, 0),
      language: form.browser_language || headers.language || "en-US",
    },
  }
}
