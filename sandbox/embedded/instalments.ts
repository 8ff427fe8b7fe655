/**
 * Instalment eligibility. The spec says the selector is enabled "when an eligible card number is entered" but not
 * which cards are eligible.
 * Assumption: a card is eligible when its number is complete and Luhn-valid and its network is VISA or MASTERCARD
 * (the networks the sandbox acquirer supports); a saved card is eligible by its stored brand. The browser frame
 * (sandbox/public/embedded-frame.js, `eligibleForInstalments`) applies the same rule for the UI.
 */
/** "Instalments offered in the card form: 1 to 6" (one constant, in the sandbox's schemas). */
export { MAX_INSTALMENTS } from "../schemas"

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false
  let sum = 0
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

export function brandOf(number: string): "VISA" | "MASTERCARD" | null {
  if (/^4/.test(number)) return "VISA"
  if (/^(5[1-5]|2[2-7])/.test(number)) return "MASTERCARD"
  return null
}

export const eligibleBrand = (brand: string | null | undefined) => brand === "VISA" || brand === "MASTERCARD"

export const eligibleCardNumber = (number: string) => luhnValid(number) && eligibleBrand(brandOf(number))
