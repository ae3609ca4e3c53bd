import { type DomainError, unprocessable } from './errors';
import { err, ok, type Result } from './result';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';

/** The styles a client may ask for; `default` is what an annotation has when none was asked. */
export const ANNOTATION_STYLES = ['success', 'info', 'warning', 'error'] as const;
export type AnnotationStyle = (typeof ANNOTATION_STYLES)[number] | 'default';

/** As the public agent: a body (and a body after an append) of at most 1 MiB of UTF-8. */
export const ANNOTATION_BODY_MAX_BYTES = 1024 * 1024;
/** As the public agent's `--context`. */
export const ANNOTATION_CONTEXT_MAX_LENGTH = 100;
export const DEFAULT_ANNOTATION_CONTEXT = 'default';
export const DEFAULT_ANNOTATION_PRIORITY = 3;

/** A build's annotation: Markdown as sent, and its sanitised HTML, rendered when it was written. */
export interface Annotation {
  id: string;
  buildId: string;
  /** the job whose agent wrote it last; null when written over the REST API */
  jobId: string | null;
  context: string;
  style: AnnotationStyle;
  priority: number;
  body: string;
  bodyHtml: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A checked request to annotate: one context of a build, its new style (null keeps it) and body. */
export interface AnnotationWrite {
  context: string;
  style: AnnotationStyle | null;
  priority: number | null;
  body: string;
  append: boolean;
}

const invalid = (message: string) => unprocessable('invalid_annotation', message);

/** A context as sent: absent or empty is `default`; otherwise storable text of at most 100 characters. */
export function parseAnnotationContext(value: unknown): Result<string> {
  if (value === undefined || value === null || value === '') return ok(DEFAULT_ANNOTATION_CONTEXT);
  if (typeof value !== 'string') return err(invalid('context must be a string'));
  if (!isStorableText(value)) return err(invalid(`context ${UNSTORABLE_TEXT}`));
  if ([...value].length > ANNOTATION_CONTEXT_MAX_LENGTH) {
    return err(invalid(`context is too long (maximum is ${ANNOTATION_CONTEXT_MAX_LENGTH} characters)`));
  }
  return ok(value);
}

/** The body of an annotate request (REST, the agent API): every field checked, nothing assumed. */
export function parseAnnotationWrite(input: {
  style?: unknown;
  context?: unknown;
  body?: unknown;
  append?: unknown;
  priority?: unknown;
}): Result<AnnotationWrite> {
  const context = parseAnnotationContext(input.context);
  if (!context.ok) return context;
  let style: AnnotationStyle | null = null;
  if (input.style !== undefined && input.style !== null && input.style !== '') {
    const asked = typeof input.style === 'string' ? input.style.toLowerCase() : input.style;
    if (asked !== 'default' && !ANNOTATION_STYLES.includes(asked as never)) {
      return err(invalid(`style must be one of ${ANNOTATION_STYLES.join(', ')}`));
    }
    style = asked as AnnotationStyle;
  }
  let priority: number | null = null;
  if (input.priority !== undefined && input.priority !== null && input.priority !== 0) {
    if (
      typeof input.priority !== 'number' ||
      !Number.isInteger(input.priority) ||
      input.priority < 1 ||
      input.priority > 10
    ) {
      return err(invalid('priority must be a whole number from 1 to 10'));
    }
    priority = input.priority;
  }
  const body = input.body ?? '';
  if (typeof body !== 'string') return err(invalid('body must be a string'));
  if (!isStorableText(body)) return err(invalid(`body ${UNSTORABLE_TEXT}`));
  const tooLarge = bodyTooLarge(body);
  if (tooLarge) return err(tooLarge);
  const append = input.append ?? false;
  if (typeof append !== 'boolean') return err(invalid('append must be true or false'));
  return ok({ context: context.value, style, priority, body, append });
}

/** The length of `text` in UTF-8 (storable text has no unpaired surrogates). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

function bodyTooLarge(body: string): DomainError | null {
  const size = utf8Length(body);
  if (size <= ANNOTATION_BODY_MAX_BYTES) return null;
  return invalid(
    `body is too large (${size} bytes; the maximum is ${ANNOTATION_BODY_MAX_BYTES} bytes, 1 MiB)`,
  );
}

/** What the annotation of the write's context becomes: its body, style and priority, or why not. */
export function annotated(
  current: Pick<Annotation, 'body' | 'style' | 'priority'> | null,
  write: AnnotationWrite,
): Result<{ body: string; style: AnnotationStyle; priority: number }> {
  const style = write.style ?? current?.style ?? 'default';
  const priority = write.priority ?? current?.priority ?? DEFAULT_ANNOTATION_PRIORITY;
  if (write.body === '') {
    // As the public agent: no body changes only the style of an annotation that exists.
    if (current && write.style !== null) return ok({ body: current.body, style, priority });
    return err(invalid("body can't be blank"));
  }
  const body = write.append && current ? current.body + write.body : write.body;
  const tooLarge = bodyTooLarge(body);
  return tooLarge ? err(tooLarge) : ok({ body, style, priority });
}
