/**
 * A job log as the public service shows it: a line starting `--- ` opens a collapsed section, `+++ ` an
 * expanded one, `~~~ ` a collapsed one whose time is hidden; `^^^ +++` expands the section before it.
 */
export interface LogSection {
  /** the header's text, without its marker; null for the lines before any header */
  title: string | null;
  /** the number of the log line the section starts at: what names it while the log grows */
  start: number;
  expanded: boolean;
  lines: string[];
}

/** Colour codes a header line may start with (ESC, written so, as a literal would hide it). */
const COLOURS = `(?:${String.fromCharCode(27)}\\[[0-9;]*m)*`;
const HEADER = new RegExp(`^${COLOURS}(---|\\+\\+\\+|~~~) (.*)$`);
const EXPAND_PREVIOUS = new RegExp(`^${COLOURS}\\^\\^\\^ \\+\\+\\+\\s*$`);

/** What a terminal would show of a line: the text after its last carriage return. */
function shown(line: string): string {
  const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
  const last = trimmed.lastIndexOf('\r');
  return last === -1 ? trimmed : trimmed.slice(last + 1);
}

export function logSections(text: string): LogSection[] {
  const sections: LogSection[] = [];
  let current: LogSection = { title: null, start: 0, expanded: true, lines: [] };
  const lines = text.split('\n');
  // A log ends with a newline: the empty text after it is no line.
  if (lines.at(-1) === '') lines.pop();
  for (const [number, raw] of lines.entries()) {
    const line = shown(raw);
    if (EXPAND_PREVIOUS.test(line)) {
      current.expanded = true;
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      if (current.title !== null || current.lines.length) sections.push(current);
      current = { title: header[2] as string, start: number, expanded: header[1] === '+++', lines: [] };
      continue;
    }
    current.lines.push(line);
  }
  if (current.title !== null || current.lines.length) sections.push(current);
  return sections;
}
