import type {
  Actor,
  BuildResult,
  JobResult,
  RegistryView,
  TeamPipelineResult,
  UseCases,
} from '@ci/application';
import type { Organization, Pipeline, PipelineAccess } from '@ci/domain';
import DataLoader from 'dataloader';

/**
 * One set per request: each batches the ids a resolver level asks for into one use case call, and
 * remembers the answers for the rest of the request, so a page of 100 builds costs what one costs.
 * The use cases decide visibility; a loader only batches them.
 */
export interface Loaders {
  builds: DataLoader<string, BuildResult | null>;
  jobs: DataLoader<string, JobResult | null>;
  registries: DataLoader<string, RegistryView | null>;
  teamPipelines: DataLoader<string, TeamPipelineResult | null>;
  organizations: DataLoader<string, Organization | null>;
  pipelineAccess: DataLoader<Pick<Pipeline, 'id' | 'organizationId'>, PipelineAccess, string>;
  /** One call per distinct key in a request (a connection asked again by every item of a page). */
  once<T>(key: string, load: () => Promise<T>): Promise<T>;
}

export function createLoaders(useCases: UseCases, actor: Actor): Loaders {
  const byId = useCases.byId;
  const memo = new Map<string, Promise<unknown>>();
  return {
    builds: new DataLoader((ids) => byId.builds(actor, ids)),
    jobs: new DataLoader((ids) => byId.jobs(actor, ids)),
    registries: new DataLoader((ids) => byId.registries(actor, ids)),
    teamPipelines: new DataLoader((ids) => byId.teamPipelines(actor, ids)),
    organizations: new DataLoader((ids) => byId.organizations(actor, ids)),
    pipelineAccess: new DataLoader((pipelines) => byId.pipelineAccess(actor, pipelines), {
      cacheKeyFn: (pipeline) => pipeline.id,
    }),
    once<T>(key: string, load: () => Promise<T>): Promise<T> {
      let found = memo.get(key) as Promise<T> | undefined;
      if (!found) {
        found = load();
        memo.set(key, found);
      }
      return found;
    },
  };
}
