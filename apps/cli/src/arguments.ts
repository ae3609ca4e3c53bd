/** `30d`, `12h`, `45m` → milliseconds. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)([dhm])$/.exec(text.trim());
  if (!match) return null;
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[match[2] as 'd' | 'h' | 'm'];
  return Number(match[1]) * unit;
}

export function list(text: string | undefined): string[] | undefined {
  return text
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
