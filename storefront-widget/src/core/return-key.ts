/** What the checkout keeps for the return page before the browser leaves for a redirect or form step. */
export const RETURN_KEY = "pgs:return"

export const rememberReturn = (p: { cartId: string; sessionId: string }) => sessionStorage.setItem(RETURN_KEY, JSON.stringify(p))
