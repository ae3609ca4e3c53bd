/**
 * The paths of the API's three transports, REST, tRPC and GraphQL: what the server sheds under pressure
 * and what browsers may call. A bare prefix (`/v2`, `/trpc`) is one too: its 404 is the API's, and a browser
 * script may read it as it reads `/v2/no/such/route`'s.
 */
const API_PATH = /^\/(?:v2|trpc|graphql)(?:[/?]|$)/;

/** Whether a request URL (path and query) is on one of the API's paths. */
export const isApiPath = (url: string): boolean => API_PATH.test(url);
