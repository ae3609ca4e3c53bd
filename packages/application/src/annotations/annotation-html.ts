import pMemoize from 'p-memoize';
import type sanitizeHtml from 'sanitize-html';

/**
 * What survives of the rendered HTML: formatting, links, images, tables, details. No script or style,
 * no event handler or other attribute not named here, and URLs only of the schemes named here (so no
 * `javascript:`); `artifact://` links, as the public service, stay.
 */
const sanitizeOptions = (defaults: typeof sanitizeHtml.defaults): sanitizeHtml.IOptions => ({
  allowedTags: [...defaults.allowedTags, 'img', 'details', 'summary', 'del', 's', 'ins', 'input'],
  allowedAttributes: {
    a: ['href', 'title', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    input: ['type', 'checked', 'disabled'],
    th: ['align', 'colspan', 'rowspan'],
    td: ['align', 'colspan', 'rowspan'],
    ol: ['start'],
    details: ['open'],
    '*': ['class', 'id'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'artifact'],
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
});

/** An annotation's Markdown as the HTML it is shown as: rendered and sanitised once, when it is written. */
export type AnnotationRenderer = (body: string) => string;

/**
 * The renderer. Its libraries (markdown-it, sanitize-html and PostCSS: ~2 MB of code) are imported when
 * the first annotation is written, not with the server, whose heap at rest sets its peak under load. A
 * failed import is not kept: the next call tries again.
 */
export const annotationRenderer = pMemoize(load);

async function load(): Promise<AnnotationRenderer> {
  // One after the other: both reach the ES module `entities`, which Node 22 cannot load for a require()
  // (sanitize-html's) while an import() of it is under way.
  const { default: sanitize } = await import('sanitize-html');
  const { default: MarkdownIt } = await import('markdown-it');
  // CommonMark with GitHub's tables and strikethrough, and the "limited HTML" the public service takes.
  const markdown = new MarkdownIt({ html: true, linkify: true });
  const options = sanitizeOptions(sanitize.defaults);
  return (body) => sanitize(markdown.render(body), options);
}
