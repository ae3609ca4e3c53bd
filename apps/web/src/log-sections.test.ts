import { describe, expect, it } from 'vitest';
import { logSections } from './log-sections';

describe('a job log in sections', () => {
  it('collapses `---` sections and expands `+++` ones', () => {
    expect(logSections('--- Setup\nfetching\n+++ Tests\nok 1\nok 2\n')).toEqual([
      { title: 'Setup', start: 0, expanded: false, lines: ['fetching'] },
      { title: 'Tests', start: 2, expanded: true, lines: ['ok 1', 'ok 2'] },
    ]);
  });

  it('keeps the lines before any header in an untitled, expanded section', () => {
    expect(logSections('hello\n--- Step\n')).toEqual([
      { title: null, start: 0, expanded: true, lines: ['hello'] },
      { title: 'Step', start: 1, expanded: false, lines: [] },
    ]);
  });

  it('expands the section before a `^^^ +++` line', () => {
    expect(logSections('--- Failing\nboom\n^^^ +++\n')).toEqual([
      { title: 'Failing', start: 0, expanded: true, lines: ['boom'] },
    ]);
  });

  it('treats `~~~` as a collapsed section, and a header after colour codes as a header', () => {
    expect(logSections('~~~ Quiet\n\x1b[0m+++ Loud\n').map((s) => [s.title, s.expanded])).toEqual([
      ['Quiet', false],
      ['Loud', true],
    ]);
  });

  it('shows what a terminal shows of a line rewritten by carriage returns', () => {
    expect(logSections('10%\r50%\r100%\r\ndone\r\n')).toEqual([
      { title: null, start: 0, expanded: true, lines: ['100%', 'done'] },
    ]);
  });

  it('does not take `---` inside a line, or without a space, for a header', () => {
    expect(logSections('a --- b\n---\n')).toEqual([
      { title: null, start: 0, expanded: true, lines: ['a --- b', '---'] },
    ]);
  });
});
