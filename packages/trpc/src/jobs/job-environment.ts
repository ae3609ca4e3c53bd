import type { BuildView } from '@ci/application';
import { type Job, jobEnvironment, webAddresses } from '@ci/domain';

/**
 * A job's environment variables, as `GET …/jobs/{job}/env` shows them and as an agent runs the job: the
 * build's `BUILDKITE_BUILD_URL` on the configured public web URL.
 */
export function environmentOf(input: {
  view: BuildView;
  job: Job;
  agentName: string | null;
  web: string;
}): Record<string, string> {
  const { view } = input;
  return jobEnvironment({
    job: input.job,
    build: view.build,
    pipeline: view.pipeline,
    organizationSlug: view.organizationSlug,
    creator: view.creator,
    agentName: input.agentName,
    buildWebUrl: webAddresses.build(input.web, view.organizationSlug, view.pipeline.slug, view.build.number),
  });
}
