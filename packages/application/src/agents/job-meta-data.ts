import {
  checkMetaDataKey,
  checkMetaDataValue,
  DomainError,
  isActiveJob,
  META_DATA_LIMITS,
  notFound,
  type Result,
  unprocessable,
} from '@ci/domain';
import type { Deps } from '../ports';
import { authenticateAgent, ownJob } from './agent-protocol';

const must = <T>(result: Result<T, DomainError>): T => {
  if (!result.ok) throw result.error;
  return result.value;
};

/** The build's meta-data as the agent's own job sees it. */
async function metaDataOfJob(deps: Deps, authorization: string | undefined, jobId: string) {
  const agent = await authenticateAgent(deps)(authorization);
  const location = await ownJob(deps, agent, jobId);
  const metaData = await deps.repos.buildMetaData.read(location.buildId);
  if (!metaData) throw notFound('build');
  return metaData;
}

/**
 * Sets one key of a build's meta-data (a job's `meta-data set`, a block step's fields on unblock); a new
 * key past the build's limit of keys is refused (422) and nothing is written.
 */
export async function setBuildMetaData(deps: Deps, input: { buildId: string; key: string; value: string }) {
  const written = await deps.repos.buildMetaData.set({ ...input, maxKeys: META_DATA_LIMITS.keysPerBuild });
  if (!written) {
    throw unprocessable(
      'too_many_keys',
      `A build may hold at most ${META_DATA_LIMITS.keysPerBuild} meta-data keys`,
    );
  }
}

/**
 * `meta-data set` from a running job: one key of its build's meta-data, written in one statement that
 * merges into what is there, so jobs setting keys at once lose none.
 */
export const setJobMetaData =
  (deps: Deps) =>
  async (authorization: string | undefined, jobId: string, input: { key: unknown; value: unknown }) => {
    const key = must(checkMetaDataKey(input.key));
    const value = must(checkMetaDataValue(input.value));
    const agent = await authenticateAgent(deps)(authorization);
    const location = await ownJob(deps, agent, jobId);
    if (!isActiveJob(location.job.state)) throw unprocessable('job_finished', 'This job has finished');
    await setBuildMetaData(deps, { buildId: location.buildId, key, value });
  };

export const getJobMetaData =
  (deps: Deps) =>
  async (authorization: string | undefined, jobId: string, key: unknown): Promise<string> => {
    const name = must(checkMetaDataKey(key));
    const value = (await metaDataOfJob(deps, authorization, jobId))[name];
    if (value === undefined) {
      throw new DomainError({
        kind: 'not_found',
        code: 'meta_data_not_found',
        message: `No meta-data "${name}"`,
      });
    }
    return value;
  };

export const jobMetaDataExists =
  (deps: Deps) =>
  async (authorization: string | undefined, jobId: string, key: unknown): Promise<boolean> => {
    const name = must(checkMetaDataKey(key));
    return Object.hasOwn(await metaDataOfJob(deps, authorization, jobId), name);
  };

export const jobMetaDataKeys =
  (deps: Deps) =>
  async (authorization: string | undefined, jobId: string): Promise<string[]> =>
    Object.keys(await metaDataOfJob(deps, authorization, jobId)).sort();
