import type { BlockedState, BuildState } from './build-state';
import { presentBuildState } from './build-state';

/** What a badge says, and in which colour: the latest build's state, in the words READMEs show. */
export const BADGE_STATUSES = {
  passing: '#44cc11',
  failing: '#e05d44',
  running: '#dfb317',
  scheduled: '#9f9f9f',
  blocked: '#dfb317',
  canceled: '#9f9f9f',
  skipped: '#9f9f9f',
  unknown: '#9f9f9f',
} as const;
export type BadgeStatus = keyof typeof BADGE_STATUSES;

/** The badge of a branch's latest build; no build at all is `unknown`. */
export function badgeStatus(
  build: { state: BuildState; blockedState: BlockedState | null } | null,
): BadgeStatus {
  if (!build) return 'unknown';
  const { state, blocked } = presentBuildState(build);
  if (blocked) return 'blocked';
  switch (state) {
    case 'passed':
      return 'passing';
    case 'failed':
    case 'failing':
      return 'failing';
    case 'running':
    case 'canceling':
      return 'running';
    case 'scheduled':
      return 'scheduled';
    case 'canceled':
      return 'canceled';
    case 'skipped':
    case 'not_run':
      return 'skipped';
  }
}

// Verdana 11px averages about 7 pixels a character; the badge need not be exact to read well.
const CHARACTER_WIDTH = 7;
const PADDING = 10;

/** A flat two-part SVG badge, `build | <status>`, sized to its words. */
export function badgeSvg(status: BadgeStatus): string {
  const label = 'build';
  const left = label.length * CHARACTER_WIDTH + PADDING;
  const right = status.length * CHARACTER_WIDTH + PADDING;
  const width = left + right;
  const color = BADGE_STATUSES[status];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${label}: ${status}">`,
    `<title>${label}: ${status}</title>`,
    `<rect width="${left}" height="20" fill="#555"/>`,
    `<rect x="${left}" width="${right}" height="20" fill="${color}"/>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">',
    `<text x="${left / 2}" y="14">${label}</text>`,
    `<text x="${left + right / 2}" y="14">${status}</text>`,
    '</g></svg>',
  ].join('');
}
