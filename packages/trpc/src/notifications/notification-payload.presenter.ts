import type { Notification, PingSubject } from '@ci/application';
import type { User } from '@ci/domain';
import { presentJobAgent } from '../agents/agent.presenter';
import { presentBuild, presentJob } from '../builds/build.presenter';
import { presentOrganization } from '../organizations/organization.presenter';
import type { PublicUrls } from '../trpc';

/**
 * The bodies of outbound webhooks, in the shapes of the public examples (webhook-*.json): build events
 * `{event, build, pipeline, sender}` (the build without its jobs), job events `{event, job, build,
 * pipeline, sender}`, agent events `{event, agent, sender}`, ping `{event, service, organization, sender}`.
 * The objects are the REST presenters' own; the sender is who made the build or the agent, null if no one.
 */

const sender = (user: User | null) => (user ? { id: user.id, name: user.name } : null);

export function presentNotification(notification: Notification, urls: PublicUrls): string {
  const { event, subject } = notification;
  if (subject.kind === 'agent') {
    const agent = presentJobAgent({
      agent: subject.agent,
      creator: null,
      organizationSlug: subject.organization.slug,
      urls,
    });
    return JSON.stringify({ event, agent, sender: null });
  }
  const result = { view: subject.build, showWebhookUrl: false };
  const { pipeline, ...build } = presentBuild(result, { urls, form: 'list', excludeJobs: true });
  const who = sender(subject.build.creator);
  if (subject.kind === 'build') return JSON.stringify({ event, build, pipeline, sender: who });
  const job = presentJob(result, subject.job, urls);
  return JSON.stringify({ event, job, build, pipeline, sender: who });
}

export function presentPing(subject: PingSubject, urls: PublicUrls): string {
  return JSON.stringify({
    event: 'ping',
    service: { id: subject.service.id, provider: 'webhook', settings: { url: subject.service.url } },
    organization: presentOrganization(subject.organization, urls),
    sender: sender(subject.sender),
  });
}
