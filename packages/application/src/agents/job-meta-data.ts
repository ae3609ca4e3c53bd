import {
  checkMetaDataKey,
  checkMetaDataValue,
  DomainError,
  isActiveJob,
  META_DATA_LIMITS,
  notFound,
  type Result,
  tooManyMetaDataKeys,
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
    const written = await deps.repos.buildMetaData.set({
      buildId: location.buildId,
      key,
      value,
      maxKeys: META_DATA_LIMITS.keysPerBuild,
    });
    // A new key past the build's limit of keys is refused and nothing is written.
    if (!written) throw tooManyMetaDataKeys(META_DATA_LIMITS.keysPerBuild);
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
