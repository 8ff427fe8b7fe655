/**
 * Card data in what a storefront sends, found by its shape wherever it sits: a card number (12 to 19 digits, with
 * runs of spaces, dashes or dots between or around them, passing the Luhn check; or any 12 to 19 digits under a
 * card-number name), a security code under its usual names (cvv, cvc, security_code…), a network token's number, or a
 * `payment_method` of type "network-token". A store outside PCI DSS scope SAQ D must never hold the first three;
 * a network token comes to a store's own server from a wallet or a token service, never from a browser, unless
 * the store says its storefront passes them on.
 */

export type CardDataRules = {
  /** rawCardDataPciScope is SAQ_D: card numbers and security codes may reach the server. */
  rawCards: boolean
  /** networkTokensFromStorefront: a network token (and its number) may come from the storefront. */
  networkTokens: boolean
}

export type CardDataProblem = { field: string; message: string }

const SECURITY_CODE_NAMES = new Set(["cvv", "cvv2", "cvc", "cvc2", "cav2", "csc", "cvn", "securitycode", "cardsecuritycode", "cardverificationvalue", "cardverificationcode", "cardcode", "cardcvv", "cardcvc"])
const CARD_NUMBER_NAMES = new Set(["number", "cardnumber", "pan", "ccnumber", "creditcardnumber", "primaryaccountnumber", "cardno"])
const TOKEN_NUMBER_NAMES = new Set(["tokennumber", "networktokennumber"])

/** A field name without case, dashes or underscores: "Card-Number", "card_number" and "cardNumber" are one. */
const nameOf = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, "")

/** Longer strings are not read (the check stays cheap): 19 digits with a separator run of 9 between each pair fit. */
const MAX_CARD_STRING = 200
/** Digits with spaces (any whitespace), dashes or dots anywhere between or around them, in runs of any length. */
const CARD_WRITTEN = /^[\s.\-\u2010-\u2015]*\d[\d\s.\-\u2010-\u2015]*$/
const SEPARATORS = /[\s.\-\u2010-\u2015]+/g

/**
 * The digits of a value written as a card number may be (digits and separators only), or null. Bounded by its
 * digits (hasCardLength), not its length: "4111  1111  1111  1111" or a number padded with dashes is one.
 */
function cardDigits(value: unknown): string | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? String(value) : null
  if (typeof value !== "string" || value.length > MAX_CARD_STRING || !CARD_WRITTEN.test(value)) return null
  return value.replace(SEPARATORS, "")
}

const hasCardLength = (digits: string) => digits.length >= 12 && digits.length <= 19

/** ISO/IEC 7812's check digit. */
export function passesLuhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

const isNetworkToken = (node: unknown) =>
  !!node && typeof node === "object" && typeof (node as { type?: unknown }).type === "string" && (node as { type: string }).type.toLowerCase() === "network-token"

const CARD_WORDS = "card details are typed only into the gateway's card fields and never sent to the store, unless the store is in PCI DSS scope SAQ D (option rawCardDataPciScope)"
const NETWORK_TOKEN_WORDS =
  "a network token is not taken from a storefront: it comes from a wallet or a token service to the store's own server (to let the storefront pass them on, set option networkTokensFromStorefront, PGS_NETWORK_TOKENS_FROM_STOREFRONT). Pay with the card fields, a saved card or the gateway's payment page instead"

type Node = { value: unknown; path: string[]; parent: unknown }

/** Every card-shaped field of a parsed body, named by its dotted path; walked with a stack (bodies are depth-checked before). */
export function cardShapedFields(body: unknown, rules: CardDataRules): CardDataProblem[] {
  const problems: CardDataProblem[] = []
  const stack: Node[] = [{ value: body, path: [], parent: null }]
  while (stack.length && problems.length < 20) {
    const { value, path, parent } = stack.pop()!
    const field = path.join(".") || "body"
    const name = nameOf(path[path.length - 1] ?? "")
    if (value && typeof value === "object") {
      if (!rules.networkTokens && isNetworkToken(value)) {
        problems.push({ field: `${field === "body" ? "" : `${field}.`}type`, message: `is "network-token": ${NETWORK_TOKEN_WORDS}` })
        continue
      }
      const entries = Object.entries(value)
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], path: [...path, entries[i][0]], parent: value })
      continue
    }
    const digits = cardDigits(value)
    if (TOKEN_NUMBER_NAMES.has(name) && digits && hasCardLength(digits)) {
      if (!(rules.networkTokens && isNetworkToken(parent))) problems.push({ field, message: `is a network token's number outside a network token: ${CARD_WORDS}` })
      continue
    }
    if (rules.rawCards) continue
    if (SECURITY_CODE_NAMES.has(name) && (typeof value === "number" || (typeof value === "string" && value.trim() !== "")))
      problems.push({ field, message: `is a card security code: ${CARD_WORDS}` })
    else if (digits && hasCardLength(digits) && (CARD_NUMBER_NAMES.has(name) || passesLuhn(digits)))
      problems.push({ field, message: `looks like a card number: ${CARD_WORDS}` })
  }
  return problems
}
