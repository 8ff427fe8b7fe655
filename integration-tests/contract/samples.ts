/**
 * One valid body per request object. The contract test removes or changes one field at a time, so rules that
 * live in refinements (required for card transactions, PLN only, IFSC for INR) are read as the schema applies them.
 */
const browser_info = {
  user_agent: "Mozilla/5.0",
  accept_header: "text/html",
  java_enabled: false,
  color_depth: 24,
  screen_height: 900,
  screen_width: 1440,
  time_zone_offset: 0,
  language: "en-US",
}
const order = { reference: "order-1", terminal_id: "SBX-ALL-001", description: "Order 1", currency: "EUR", amount: 1000 }

export const samples = {
  cardAuthorize: {
    ...order,
    transaction_type: "PURCHASE",
    payment_method: {
      type: "card",
      data: { encrypted_card_number: "n", encrypted_cvv: "c", encrypted_expiration_month: "m", encrypted_expiration_year: "y" },
    },
    browser_info,
    return_url: "https://shop.example/ok",
    // Present so the optional fields' rules are exercised too.
    options: { three_ds: { notification_url: "https://shop.example/3ds" } },
  },
  instant: {
    ...order,
    currency: "PLN",
    transaction_type: "PURCHASE",
    payment_method: { type: "provider-instant", data: { email: "a@shop.example", first_name: "A", last_name: "B" } },
    return_url: "https://shop.example/ok",
  },
  voucher: {
    ...order,
    transaction_type: "PURCHASE",
    payment_method: { type: "voucher-redirect-ali", data: { email: "a@shop.example", first_name: "A", last_name: "B" } },
    customer: { email: "a@shop.example" },
    browser_info,
    metadata: {},
    return_url: "https://shop.example/ok",
  },
  walletRedirect: {
    ...order,
    transaction_type: "PURCHASE",
    payment_method: { type: "wallet-one-redirect", data: {} },
    return_url: "https://shop.example/ok",
    error_url: "https://shop.example/error",
    cancel_url: "https://shop.example/cancel",
  },
  /** payment_method alone, per type, for the "Payment method input" table. */
  paymentMethods: {
    card: { type: "card", data: { encrypted_card_number: "n", encrypted_cvv: "c", encrypted_expiration_month: "m", encrypted_expiration_year: "y" } },
    saved_card: { type: "saved_card", data: { payment_method_id: "pm_1" } },
    "network-token": {
      type: "network-token",
      data: { encrypted_token_number: "t", encrypted_expiration_month: "m", encrypted_expiration_year: "y", encrypted_cryptogram: "c", eci: "05" },
    },
    "wallet-one": { type: "wallet-one", data: { wallet_one_token: "dG9rZW4=" } },
    "wallet-one-redirect": { type: "wallet-one-redirect", data: {} },
    "wallet-two-redirect": { type: "wallet-two-redirect", data: {} },
  } as Record<string, Record<string, unknown>>,
  manage: { terminal_id: "SBX-ALL-001", reference: "order-1", transaction_type: "CAPTURE", amount: 1000, currency: "EUR" },
  session: { ...order, transaction_type: "AUTHORIZE", return_url: "https://shop.example/ok" },
  createCustomer: { email: "a@shop.example", address: { city: "Sarajevo" } },
  requestAuthentication: { fingerprint_result: Buffer.from("Y").toString("base64"), payment_data: "blob" },
  authenticationCompleted: { payment_data: "blob", session_id: "3ds-1", trans_status: "Y" },
  hostedPage: {
    ...order,
    success_url: "https://shop.example/ok",
    cancel_url: "https://shop.example/cancel",
    error_url: "https://shop.example/error",
  },
  payment: {
    ...order,
    method: "OPEN_BANKING",
    country: "IN",
    customer_ip: "203.0.113.7",
    return_url: "https://shop.example/ok",
    error_url: "https://shop.example/error",
    cancel_url: "https://shop.example/cancel",
  },
  payout: {
    ...order,
    currency: "INR",
    beneficiary: { type: "bank_account", data: { account_number: "001234567890", account_name: "Asha Rao", ifsc: "HDFC0001234" } },
  },
}
