import type { Annotation } from '@ci/domain';
import { builder } from '../builder';
import { BuildRef } from './refs';
import { ConnectionInterface } from './scalars';

/**
 * Build annotations, as the public schema has them: written by a job's `buildkite-agent annotate` or
 * over REST, read for a page of builds at once (`byId.annotationsOfBuilds`). All are build-scoped.
 */
const STYLES = ['DEFAULT', 'ERROR', 'INFO', 'SUCCESS', 'WARNING'] as const;
const AnnotationStyle = builder.enumType('AnnotationStyle', { values: STYLES });
const AnnotationScope = builder.enumType('AnnotationScope', { values: ['BUILD', 'JOB'] as const });
const AnnotationOrder = builder.enumType('AnnotationOrder', {
  values: ['PRIORITY_RECENTLY_CREATED', 'RECENTLY_CREATED'] as const,
});

const AnnotationBody = builder.objectRef<Annotation>('AnnotationBody').implement({
  description: 'The body of an annotation',
  fields: (t) => ({
    text: t.string({ nullable: false, description: 'The Markdown as it was sent', resolve: (a) => a.body }),
    html: t.string({
      nullable: true,
      description: 'The Markdown rendered as sanitised HTML',
      resolve: (a) => a.bodyHtml,
    }),
  }),
});

export const AnnotationRef = builder.objectRef<Annotation>('Annotation');

builder.node(AnnotationRef, {
  description: 'An annotation allows you to add arbitrary content to the top of a build page',
  id: { resolve: (annotation) => annotation.id },
  fields: (t) => ({
    uuid: t.exposeID('id', { nullable: false }),
    context: t.exposeString('context', { nullable: false }),
    style: t.field({
      type: AnnotationStyle,
      nullable: true,
      resolve: (a) => a.style.toUpperCase() as (typeof STYLES)[number],
    }),
    scope: t.field({ type: AnnotationScope, nullable: false, resolve: () => 'BUILD' as const }),
    priority: t.exposeInt('priority', { nullable: false }),
    body: t.field({ type: AnnotationBody, nullable: true, resolve: (a) => a }),
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
      description: "The build's annotations, newest first, read for a page of builds at once",
      args: {
        order: t.arg({ type: AnnotationOrder, required: false, defaultValue: 'RECENTLY_CREATED' }),
        style: t.arg({ type: [AnnotationStyle], required: false }),
      },
      resolve: (build, args, ctx, info) => {
        const filter = {
          styles: args.style ? args.style.map((style) => style.toLowerCase() as Annotation['style']) : null,
          byPriority: args.order === 'PRIORITY_RECENTLY_CREATED',
        };
        return ctx.loaders
          .connection({
            field: 'Build.annotations',
            args,
            info,
            idOf: (id: string) => id,
            read: (requests) => ctx.useCases.byId.annotationsOfBuilds(ctx.actor, requests, filter),
          })
          .load(build.uuid);
      },
    },
    AnnotationConnection,
  ),
);
