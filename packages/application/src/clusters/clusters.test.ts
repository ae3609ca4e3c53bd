import type { Cluster, ClusterQueue, OrganizationRole, Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { ClusterQueueRecord, ClusterRepository, Deps } from '../ports';
import { ACME, actorWith, uuid } from '../use-case.fixture';
import { pauseClusterQueueDispatch, resumeClusterQueueDispatch } from './cluster-queues';
import { createCluster, deleteCluster, getCluster, updateCluster } from './clusters';

const NOW = new Date('2026-11-27T03:30:00.000Z');
const ALL: Scope[] = ['read_clusters', 'write_clusters'];

const cluster: Cluster = {
  id: uuid(1),
  organizationId: ACME.id,
  name: 'Open Source',
  description: null,
  emoji: null,
  color: null,
  defaultQueueId: null,
  createdById: null,
  createdAt: new Date(0),
};

const queue: ClusterQueue = {
  id: uuid(2),
  clusterId: cluster.id,
  key: 'default',
  description: null,
  dispatchPausedAt: null,
  dispatchPausedById: null,
  dispatchPausedNote: null,
  hostedAgents: null,
  retryAgentAffinity: 'prefer-warmest',
  createdById: null,
  createdAt: new Date(0),
};

/** A repository of one cluster with one queue, recording what is written. */
function deps(options: { role?: OrganizationRole | null; pipelines?: number } = {}) {
  let current: ClusterQueueRecord = { queue, cluster, createdBy: null, dispatchPausedBy: null };
  const written: string[] = [];
  const clusters = {
    findCluster: async (organizationId: string, id: string) =>
      organizationId === ACME.id && id === cluster.id ? { cluster, createdBy: null } : null,
    insertCluster: async (inserted: Cluster) => {
      written.push(`insert ${inserted.name}`);
    },
    updateCluster: async ({ changes }: { changes: object }) => {
      written.push(`update ${JSON.stringify(changes)}`);
      return { cluster: { ...cluster, ...changes }, createdBy: null };
    },
    deleteCluster: async () =>
      options.pipelines ? { pipelines: options.pipelines, agents: 0 } : ('deleted' as const),
    findQueue: async (clusterId: string, id: string) =>
      clusterId === cluster.id && id === queue.id ? current : null,
    updateQueue: async ({ changes }: { changes: Partial<ClusterQueue> }) => {
      current = { ...current, queue: { ...current.queue, ...changes } };
      return current;
    },
  } as Partial<ClusterRepository>;
  const access = {
    organization: async ({ organizationSlug }: { organizationSlug: string }) =>
      options.role !== null && organizationSlug === 'acme'
        ? { organization: ACME, role: options.role ?? 'admin' }
        : null,
  };
  const bound = {
    repos: { access, clusters },
    clock: { now: () => NOW },
    newId: () => uuid(9),
  } as unknown as Deps;
  return { deps: bound, written };
}

const ref = { organization: 'acme', cluster: cluster.id };
const queueRef = { ...ref, queue: queue.id };

describe('who may read and change clusters', () => {
  it('lets members read and refuses them changes with 403 Forbidden, writing nothing', async () => {
    const { deps: d, written } = deps({ role: 'member' });
    await expect(getCluster(d)(actorWith(ALL), ref)).resolves.toMatchObject({
      cluster: { name: 'Open Source' },
    });
    for (const change of [
      () => createCluster(d)(actorWith(ALL), 'acme', { name: 'x' }),
      () => updateCluster(d)(actorWith(ALL), ref, { name: 'x' }),
      () => deleteCluster(d)(actorWith(ALL), ref),
      () => pauseClusterQueueDispatch(d)(actorWith(ALL), queueRef, {}),
    ]) {
      await expect(change()).rejects.toMatchObject({ kind: 'forbidden', message: 'Forbidden' });
    }
    expect(written).toEqual([]);
  });

  it('decides the scope, then the organization, then the cluster, then the role, then the body', async () => {
    const { deps: d } = deps({ role: 'member' });
    await expect(
      updateCluster(d)(actorWith(['read_clusters']), { ...ref, organization: 'nope' }, {}),
    ).rejects.toMatchObject({
      message: "Your access token doesn't have the write_clusters scope",
    });
    await expect(
      updateCluster(d)(actorWith(ALL), { ...ref, organization: 'nope' }, {}),
    ).rejects.toMatchObject({
      message: 'No organization found',
    });
    await expect(
      updateCluster(d)(actorWith(ALL), { ...ref, cluster: 'not-a-uuid' }, {}),
    ).rejects.toMatchObject({
      message: 'No cluster found',
    });
    await expect(updateCluster(d)(actorWith(ALL), ref, { name: '' })).rejects.toMatchObject({
      message: 'Forbidden',
    });
    const admin = deps();
    await expect(updateCluster(admin.deps)(actorWith(ALL), ref, { name: '' })).rejects.toMatchObject({
      kind: 'unprocessable',
      message: "Validation failed: Name can't be blank",
    });
  });

  it('makes a cluster without a default queue, created by the caller', async () => {
    const { deps: d, written } = deps();
    const view = await createCluster(d)(actorWith(ALL), 'acme', { name: 'Private Apps' });
    expect(view).toMatchObject({
      cluster: { id: uuid(9), name: 'Private Apps', defaultQueueId: null, createdById: 'u', createdAt: NOW },
      createdBy: { id: 'u' },
      organizationSlug: 'acme',
    });
    expect(written).toEqual(['insert Private Apps']);
  });

  it('writes nothing for an update that names no field', async () => {
    const { deps: d, written } = deps();
    await expect(updateCluster(d)(actorWith(ALL), ref, { unknown: 1 })).resolves.toMatchObject({ cluster });
    expect(written).toEqual([]);
  });

  it('answers 422 naming the pipelines that keep a cluster from being deleted', async () => {
    const { deps: d } = deps({ pipelines: 2 });
    await expect(deleteCluster(d)(actorWith(ALL), ref)).rejects.toMatchObject({
      kind: 'unprocessable',
      message: "This cluster can't be deleted: 2 pipelines use it. Move them to another cluster first.",
    });
  });
});

describe('pausing and resuming dispatch', () => {
  it('keeps who paused first and when, takes the latest note, and clears all on resume', async () => {
    const { deps: d } = deps();
    const first = await pauseClusterQueueDispatch(d)(actorWith(ALL), queueRef, { note: 'one' });
    expect(first.queue).toMatchObject({
      dispatchPausedAt: NOW,
      dispatchPausedById: 'u',
      dispatchPausedNote: 'one',
    });
    const other = { ...actorWith(ALL), user: { ...actorWith(ALL).user, id: 'v' } };
    const again = await pauseClusterQueueDispatch(d)(other, queueRef, { note: 'two' });
    expect(again.queue).toMatchObject({
      dispatchPausedAt: NOW,
      dispatchPausedById: 'u',
      dispatchPausedNote: 'two',
    });
    const resumed = await resumeClusterQueueDispatch(d)(actorWith(ALL), queueRef);
    expect(resumed.queue).toMatchObject({
      dispatchPausedAt: null,
      dispatchPausedById: null,
      dispatchPausedNote: null,
    });
  });

  it('answers 404 for a queue of no cluster of the organization', async () => {
    const { deps: d } = deps();
    await expect(
      pauseClusterQueueDispatch(d)(actorWith(ALL), { ...queueRef, queue: uuid(3) }, {}),
    ).rejects.toMatchObject({ message: 'No cluster queue found' });
  });
});
