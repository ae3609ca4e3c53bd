/** A GraphQL request's parameters as a JSON body holds them (`query`, `variables`, `operationName`, …). */
export type PostedParams = Record<string, unknown>;

/**
 * The parameters of a POST whose body the HTTP server has read, parsed once here: when yoga would read
 * the body as JSON (its content type `application/json` or `application/graphql+json`, as yoga matches
 * them) and it holds an object with at least one member. Yoga then takes the object as the body it would
 * have parsed (whatwg-node's parsed-body path) instead of the text, which it would otherwise also
 * enumerate character by character (`Object.keys` of the string, ~60 µs for the bench's query).
 * Anything else (no body, another type, invalid JSON, an array, `{}`) is undefined: yoga reads the text
 * and answers it as before.
 */
export function postedParams(
  contentType: string | undefined,
  body: string | undefined,
): PostedParams | undefined {
  if (!body || !readsAsJson(contentType)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  return Object.keys(parsed).length > 0 ? (parsed as PostedParams) : undefined;
}

/** yoga's `isPOSTJsonRequest` test of the content type: the first of a list, exactly or with parameters. */
function readsAsJson(contentType: string | undefined): boolean {
  const type = contentType?.split(',')[0];
  return JSON_TYPES.some((json) => type === json || type?.startsWith(`${json};`) === true);
}

const JSON_TYPES = ['application/json', 'application/graphql+json'];
