import { ANNOTATION_BODY_MAX_BYTES, ANNOTATION_CONTEXT_MAX_LENGTH, ANNOTATION_STYLES } from '@ci/domain';
import { z } from 'zod';

const timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' });

/** The wire shape of an annotation, keys in the order of the recorded list (annotation_list.json). */
export const AnnotationWire = z
  .strictObject({
    id: z.uuid(),
    context: z.string().meta({ description: 'unique among the build’s annotations' }),
    style: z.enum(['default', ...ANNOTATION_STYLES]).meta({ description: '`default` when none was asked' }),
    created_at: timestamp,
    updated_at: timestamp.meta({ description: 'when it was last appended to, replaced or restyled' }),
    body_html: z.string().meta({
      description:
        'the Markdown body rendered as HTML when it was written, sanitised: no scripts, event handlers or `javascript:` URLs',
    }),
  })
  .meta({ id: 'Annotation' });
export type AnnotationWire = z.infer<typeof AnnotationWire>;

/** Documented as input: the domain validates the body (422 with a message naming the field). */
export const CreateAnnotationRequest = z
  .object({
    body: z.string().meta({
      description: `Markdown (CommonMark, with some HTML), at most ${ANNOTATION_BODY_MAX_BYTES} bytes of UTF-8 (1 MiB); may be empty only to restyle an existing context`,
    }),
    style: z
      .enum(ANNOTATION_STYLES)
      .optional()
      .meta({ description: 'default: keeps the current one, `default` for a new one' }),
    context: z.string().max(ANNOTATION_CONTEXT_MAX_LENGTH).optional().meta({
      description: 'the annotation to write: the same context replaces (or, with `append`, extends) it',
      default: 'default',
    }),
    append: z
      .boolean()
      .optional()
      .meta({ description: "adds the body to the context's annotation", default: false }),
    priority: z.number().int().min(1).max(10).optional().meta({ description: 'from 1 to 10', default: 3 }),
  })
  .meta({ id: 'CreateAnnotationRequest', unusedIO: 'input' });
export type CreateAnnotationRequest = z.input<typeof CreateAnnotationRequest>;
