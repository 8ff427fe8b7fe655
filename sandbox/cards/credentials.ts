/**
 * What a card transaction is started with, shared by every step of the card simulator (start, flow, tokenize,
 * the wallet and hosted-form decoders): the bottom of the cards/ pipeline, importing nothing of it.
 */

/** A card in plain text as the simulator sees it after decryption (null fields: could not be decrypted). */
export type PlainCard = { number: string; cvv: string | null; expiration_month: number; expiration_year: number }

export type CardCredential =
  | { kind: "card"; card: PlainCard | null }
  | { kind: "saved_card"; payment_method_id: string; cvv: string | null }
  | { kind: "network-token"; card: PlainCard | null; cryptogram: string | null; eci: string | null; source: string }
  | { kind: "wallet-one"; card: PlainCard | null; auth_method: "PAN_ONLY" | "CRYPTOGRAM_3DS" }
