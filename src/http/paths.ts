/** Paths of routes added beside the contract's own, named once for the router and the 405 rule. */
export const OPENAPI_PATH = '/openapi.json';
