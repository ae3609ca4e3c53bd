import { builder } from '../builder';
import { arrayConnection } from '../connection';
import { BuildRef } from './refs';
import { ConnectionInterface } from './scalars';

/**
 * Build annotations: the public type, so clients that ask for a build's annotations validate and get
 * an empty list. Agents cannot annotate builds here yet (a later issue), so no annotation exists.
 */
export interface AnnotationShape {
  id: string;
  context: string;
  style: 'DEFAULT' | 'ERROR' | 'INFO' | 'SUCCESS' | 'WARNING';
  scope: 'BUILD' | 'JOB';
  priority: number;
  body: { text: string; html: string | null };
  createdAt: Date;
  updatedAt: Date | null;
}

const AnnotationStyle = builder.enumType('AnnotationStyle', {
  values: ['DEFAULT', 'ERROR', 'INFO', 'SUCCESS', 'WARNING'] as const,
});
const AnnotationScope = builder.enumType('AnnotationScope', { values: ['BUILD', 'JOB'] as const });
const AnnotationOrder = builder.enumType('AnnotationOrder', {
  values: ['PRIORITY_RECENTLY_CREATED', 'RECENTLY_CREATED'] as const,
});

const AnnotationBody = builder.objectRef<AnnotationShape['body']>('AnnotationBody').implement({
  description: 'The body of an annotation',
  fields: (t) => ({
    text: t.exposeString('text', { nullable: false }),
    html: t.exposeString('html', { nullable: true }),
  }),
});

export const AnnotationRef = builder.objectRef<AnnotationShape>('Annotation');

builder.node(AnnotationRef, {
  description: 'An annotation allows you to add arbitrary content to the top of a build page',
  id: { resolve: (annotation) => annotation.id },
  fields: (t) => ({
    uuid: t.exposeID('id', { nullable: false }),
    context: t.exposeString('context', { nullable: false }),
    style: t.expose('style', { type: AnnotationStyle, nullable: true }),
    scope: t.expose('scope', { type: AnnotationScope, nullable: false }),
    priority: t.exposeInt('priority', { nullable: false }),
    body: t.expose('body', { type: AnnotationBody, nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: false }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
  }),
});

const AnnotationConnection = builder.connectionObject(
  { type: AnnotationRef, name: 'AnnotationConnection', interfaces: [ConnectionInterface] },
  { name: 'AnnotationEdge' },
);

builder.objectField(BuildRef, 'annotations', (t) =>
  t.connection(
    {
      type: AnnotationRef,
      nullable: true,
      description: "The build's annotations: none yet (agents cannot annotate builds here)",
      args: {
        order: t.arg({ type: AnnotationOrder, required: false, defaultValue: 'RECENTLY_CREATED' }),
        style: t.arg({ type: [AnnotationStyle], required: false }),
      },
      resolve: (_build, args) => arrayConnection<AnnotationShape>(args, []),
    },
    AnnotationConnection,
  ),
);
