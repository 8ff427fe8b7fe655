/**
 * The method families beyond cards, one Medusa provider each. A family says which gateway call starts its
 * payment (the payment endpoint, a redirect type of authorize, or the hosted payment page), which transaction
 * type that makes, and the rules it must pass BEFORE any gateway call (currency, payer details, the shopper's
 * choices), so a refused payment never reaches the gateway.
 */
import { PAYMENT_METHODS, type VoucherCode } from "../gateway/schemas"
import type { PgsProviderOptions } from "../modules/pgs/options"

export type PaymentEndpointFamily = {
  kind: "payment"
  identifier: string
  /** The payment endpoint's `method` value (the bank redirects read it from the options). */
  method: (options: PgsProviderOptions) => string
  /** The only currency the method takes, when it has one. */
  currency?: string
}

export type AuthorizeRedirectFamily = {
  kind: "authorize"
  identifier: string
  /** payment_method.type; the voucher family builds it from the code the shopper chose. */
  paymentType: "provider-instant" | "wallet-one-redirect" | "wallet-two-redirect" | "voucher-redirect"
  /** Payer fields payment_method.data must carry (from the cart, via the client-info route). */
  payerFields: ReadonlyArray<"email" | "first_name" | "last_name">
  /** The only currency the method takes, when it has one. */
  currency?: string
}

export type HostedFamily = { kind: "hosted"; identifier: string }

export type MethodFamily = PaymentEndpointFamily | AuthorizeRedirectFamily | HostedFamily

const paymentFamily = (identifier: string, method: (typeof PAYMENT_METHODS)[number], currency?: string): PaymentEndpointFamily => ({
  kind: "payment",
  identifier,
  method: () => method,
  ...(currency ? { currency } : {}),
})

export const FAMILIES = {
  openBanking: paymentFamily("pgs-open-banking", "OPEN_BANKING"),
  // UPI is India's payment system: rupees only.
  upi: paymentFamily("pgs-upi", "UPI", "inr"),
  wallets: paymentFamily("pgs-wallets", "WALLETS"),
  bankTransfer: paymentFamily("pgs-bank-transfer", "BANK_TRANSFER"),
  qrCode: paymentFamily("pgs-qr-code", "QR_CODE"),
  bankSchemeRedirect: {
    kind: "payment",
    identifier: "pgs-bank-scheme-redirect",
    method: (options) => options.bankRedirectMethods.bankSchemeRedirect,
  },
  openbankingRedirect: {
    kind: "payment",
    identifier: "pgs-openbanking-redirect",
    method: (options) => options.bankRedirectMethods.openbankingRedirect,
  },
  providerInstant: {
    kind: "authorize",
    identifier: "pgs-provider-instant",
    paymentType: "provider-instant",
    payerFields: ["email", "first_name", "last_name"],
    currency: "pln",
  },
  walletOneRedirect: { kind: "authorize", identifier: "pgs-wallet-one-redirect", paymentType: "wallet-one-redirect", payerFields: [] },
  walletTwoRedirect: { kind: "authorize", identifier: "pgs-wallet-two-redirect", paymentType: "wallet-two-redirect", payerFields: [] },
  voucherRedirect: {
    kind: "authorize",
    identifier: "pgs-voucher-redirect",
    paymentType: "voucher-redirect",
    payerFields: ["email", "first_name", "last_name"],
  },
  hosted: { kind: "hosted", identifier: "pgs-hosted" },
} satisfies Record<string, MethodFamily>

/** Whether the family's currency rule lets it serve a cart in this currency (the one check, at initiate and in the store's method list). */
export function takesCurrency(family: MethodFamily, currencyCode: string): boolean {
  const only = onlyCurrency(family)
  return !only || only === currencyCode.toLowerCase()
}

/** The only currency a family takes (lower case), when it has one. */
export const onlyCurrency = (family: MethodFamily): string | undefined => ("currency" in family ? family.currency : undefined)

/** The family with this provider identifier (`pgs-upi`), if any. */
export const familyOf = (identifier: string): MethodFamily | undefined => Object.values(FAMILIES).find((f) => f.identifier === identifier)

/** The gateway type/method value a session of this family pays with. */
export function gatewayMethodOf(family: MethodFamily, options: PgsProviderOptions, voucherCode?: VoucherCode): string {
  switch (family.kind) {
    case "payment":
      return family.method(options)
    case "authorize":
      return family.paymentType === "voucher-redirect" ? `voucher-redirect-${voucherCode}` : family.paymentType
    case "hosted":
      return "card"
  }
}
