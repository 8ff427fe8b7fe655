/** Defined by Medusa's admin bundler (vite `define`): the backend's URL, "" when the admin is served by Medusa itself. */
declare const __BACKEND_URL__: string | undefined
