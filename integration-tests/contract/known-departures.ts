/**
 * Departures from the spec's words that are deliberate, each with its reason. Anything else the contract test
 * finds is a misreading to fix; an entry here that no longer matches anything is stale and fails the test too.
 */
export type Known = { match: RegExp; why: string }

/** Both readings. */
const SESSION_OPTIONS: Known = {
  match: /^session: options: not in the spec's table$/,
  why: "The table lists no `options`, but the text says options.number_of_instalments on a session must be left out: the schema reads options to refuse it.",
}

export const KNOWN: Record<"sandbox" | "client", Known[]> = {
  sandbox: [
    SESSION_OPTIONS,
    {
      match: /^payment: method: accepts (BANK_SCHEME_REDIRECT|OPENBANKING_REDIRECT), which the spec does not list$/,
      why: "The bank redirects go through the payment endpoint, but which method value selects them is not shown; the sandbox takes these two (README Assumptions).",
    },
  ],
  client: [
    SESSION_OPTIONS,
    {
      match: /^payment: method: accepts ZZZ, which the spec does not list$/,
      why: "The client sends whatever upper-case method the store configures (bankRedirectMethods), since the bank redirects' values are not shown.",
    },
    {
      match: /^processing codes: adds 2016$/,
      why: "2016 lies in the gateway's terminal range but not in the table; the client maps it to 'terminal refused' (README Assumptions).",
    },
    {
      match: /^(redirect|form_submit): session_id: (optional, the spec requires it|allows null, the spec does not)$/,
      why: "The other document's wallet-redirect response shows a redirect with only transaction_id and url: the client accepts one without session_id.",
    },
    {
      match: /^(transaction|customer|session response|customer response): \w+: optional, the spec requires it$/,
      why: "The client parses answers tolerantly (a missing nullable field reads as null; the status response's payment_method 'may carry only type and brand'); the sandbox, playing the gateway, sends every field.",
    },
  ],
}
