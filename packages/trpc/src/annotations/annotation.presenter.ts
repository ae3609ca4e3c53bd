import { type Annotation, formatTimestamp } from '@ci/domain';
import type { AnnotationWire } from './annotation.wire';

export function presentAnnotation(annotation: Annotation): AnnotationWire {
  return {
    id: annotation.id,
    context: annotation.context,
    style: annotation.style,
    created_at: formatTimestamp(annotation.createdAt),
    updated_at: formatTimestamp(annotation.updatedAt),
    body_html: annotation.bodyHtml,
  };
}
