import { describe, expect, it } from 'vitest';
import { annotationRenderer } from './annotation-html';

const annotationHtml = await annotationRenderer();

describe('annotationRenderer', () => {
  it('renders Markdown', () => {
    expect(annotationHtml("✨ **You've run a build!** ✨")).toBe(
      "<p>✨ <strong>You've run a build!</strong> ✨</p>\n",
    );
    expect(annotationHtml('[docs](https://example.com/d)')).toBe(
      '<p><a href="https://example.com/d">docs</a></p>\n',
    );
  });

  it('keeps the limited HTML and artifact links', () => {
    expect(annotationHtml('<details><summary>more</summary>text</details>')).toContain(
      '<details><summary>more</summary>text</details>',
    );
    expect(annotationHtml('<img src="artifact://indy.png" alt="museum" height=250 />')).toBe(
      '<img src="artifact://indy.png" alt="museum" height="250" />',
    );
  });

  it.each([
    ['a script', '<script>alert(1)</script>hello', /<script|alert/],
    ['an event handler', '<img src="x.png" onerror="alert(1)">', /onerror|alert/],
    ['a javascript: link in HTML', '<a href="javascript:alert(1)">x</a>', /javascript:/i],
    ['a javascript: link in Markdown', '[x](javascript:alert(1))', /<a|href=/],
    ['a data: image', '<img src="data:text/html;base64,PHNjcmlwdD4=">', /data:/],
    ['a style element', '<style>body{display:none}</style>', /<style|display/],
    ['an iframe', '<iframe src="https://evil.test"></iframe>', /iframe/],
    ['an encoded javascript: URL', '<a href="jav&#x09;ascript:alert(1)">x</a>', /ascript:/i],
  ])('drops %s', (_name, body, pattern) => {
    expect(annotationHtml(body)).not.toMatch(pattern);
  });
});
