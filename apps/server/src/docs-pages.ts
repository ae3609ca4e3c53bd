import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * Scalar's standalone bundle (one script, its styles inside), served from our own origin: the reference
 * page works offline and behind firewalls. Resolved from this package, in the sources and the bundle alike.
 */
const SCALAR_BUNDLE = join(
  dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')),
  'browser',
  'standalone.js',
);

const TITLE = 'CI control API';
const JSON_LINE = 'CI control API: REST under /v2, typed tRPC under /trpc, GraphQL at /graphql';

const HOME_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLE}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; }
  li { margin: .5rem 0; }
  code { background: #f2f2f2; padding: 0 .25rem; }
</style>
</head>
<body>
<h1>${TITLE}</h1>
<p>A Buildkite-style CI control API: REST under <code>/v2</code>, typed tRPC under <code>/trpc</code>,
GraphQL at <code>/graphql</code>, the agent API under <code>/v3</code>.</p>
<ul>
  <li><a href="/docs">REST API reference</a> (rendered from <a href="/v2/openapi.json">openapi.json</a>)</li>
  <li><a href="/graphql">GraphiQL</a>: paste <code>Authorization: Bearer &lt;token&gt;</code> in its headers once;
  the browser keeps it</li>
</ul>
<p>API tokens: <code>pnpm cli token create --email you@example.com --scopes all</code>.</p>
</body>
</html>
`;

const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLE}: REST reference</title>
</head>
<body>
<div id="reference"></div>
<script src="/docs/scalar-standalone.js"></script>
<script>
  Scalar.createApiReference('#reference', {
    url: '/v2/openapi.json',
    // Nothing from elsewhere: the system's fonts, no telemetry.
    withDefaultFonts: false,
    telemetry: false,
  });
</script>
</body>
</html>
`;

/** A browser asks for HTML first; API clients (`*\/*`, `application/json`, none) get the JSON line. */
const wantsHtml = (accept: string | undefined) => accept?.includes('text/html') === true;

/** `/` (HTML for a browser, the JSON line for API clients) and the REST reference page at `/docs`. */
export function registerDocsPages(app: FastifyInstance) {
  app.get('/', async (request, reply) => {
    if (wantsHtml(request.headers.accept)) return reply.type('text/html; charset=utf-8').send(HOME_PAGE);
    return { message: JSON_LINE, timestamp: Math.floor(Date.now() / 1000) };
  });
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(REFERENCE_PAGE));
  app.get('/docs/scalar-standalone.js', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(createReadStream(SCALAR_BUNDLE)),
  );
}
