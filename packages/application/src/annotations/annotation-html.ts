import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

// CommonMark with GitHub's tables and strikethrough, and the "limited HTML" the public service takes.
const markdown = new MarkdownIt({ html: true, linkify: true });

/**
 * What survives of the rendered HTML: formatting, links, images, tables, details. No script or style,
 * no event handler or other attribute not named here, and URLs only of the schemes named here (so no
 * `javascript:`); `artifact://` links, as the public service, stay.
 */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'details',
    'summary',
    'del',
    's',
    'ins',
    'input',
  ],
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
};

/** An annotation's Markdown as the HTML it is shown as: rendered and sanitised once, when it is written. */
export function annotationHtml(body: string): string {
  return sanitizeHtml(markdown.render(body), SANITIZE);
}
