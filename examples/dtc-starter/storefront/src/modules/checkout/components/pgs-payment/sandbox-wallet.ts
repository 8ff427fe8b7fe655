/**
 * PGS sandbox only: a stand-in for a wallet button. The gateway saves a card only from a Direct API payment (a
 * wallet token), never from the embedded card fields, so to try "Save this card for next time" against the sandbox
 * set NEXT_PUBLIC_PGS_SANDBOX_WALLET_CARD to a test card (e.g. 4000000000001000): the widget then offers
 * "Wallet on this device" and this builds the sandbox's wallet-one token for that card (format: the plugin README,
 * "Assumptions"). With a real wallet, pass `wallet={{ getToken }}` returning the wallet's own token instead, and
 * leave the variable unset in production.
 */
export function sandboxWallet(pan?: string): { getToken(): Promise<string> } | undefined {
  if (!pan) return undefined
  return {
    async getToken() {
      const signedMessage = JSON.stringify({
        cardNetwork: pan.startsWith("5") ? "MASTERCARD" : "VISA",
        paymentMethodDetails: { pan, expirationMonth: 12, expirationYear: new Date().getFullYear() + 3, authMethod: "PAN_ONLY" },
      })
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(signedMessage))
      const signature = btoa(Array.from(new Uint8Array(digest), (b) => String.fromCharCode(b)).join(""))
      const intermediateSigningKey = { signedKey: "sandbox-signed-key", signatures: ["sandbox-signature"] }
      return btoa(JSON.stringify({ protocolVersion: "ECv2", signature, intermediateSigningKey, signedMessage }))
    },
  }
}
