import {
  type Agent,
  type NotificationDelivery,
  type NotificationEvent,
  type NotificationService,
  notificationEventOf,
  type Organization,
  serviceWants,
  type Transition,
} from '@ci/domain';
import type { BuildView, Deps, JobView } from '../ports';

/**
 * The background half of notifications: which services want the transitions the triggers recorded
 * (Migration20261127170000), with what each event is about; the server presents the bodies (the REST
 * presenters) and queues them. Nothing here is a request's: no actor, every organization.
 */

export type NotificationSubject =
  | { kind: 'build'; build: BuildView }
  | { kind: 'job'; build: BuildView; job: JobView }
  | { kind: 'agent'; agent: Agent; organization: Organization };

export interface Notification {
  service: NotificationService;
  event: NotificationEvent;
  eventId: string;
  subject: NotificationSubject;
}

export const notificationsFor =
  (deps: Deps) =>
  async (transitions: readonly Transition[]): Promise<Notification[]> => {
    const events = transitions.flatMap((transition) => {
      const event = notificationEventOf(transition);
      return event ? [{ transition, event }] : [];
    });
    if (events.length === 0) return [];
    const services = await deps.repos.notificationServices.enabledOf([
      ...new Set(events.map(({ transition }) => transition.organizationId)),
    ]);
    const wanted = events.filter(({ transition, event }) =>
      services.some(
        (service) => service.organizationId === transition.organizationId && service.events.includes(event),
      ),
    );
    if (wanted.length === 0) return [];
    const ids = (kind: Transition['kind']) => [
      ...new Set(
        wanted.filter(({ transition }) => transition.kind === kind).map(({ transition }) => transition.id),
      ),
    ];
    const jobBuilds = await deps.repos.lookups.jobBuilds(ids('job'));
    const buildIds = [...new Set([...ids('build'), ...jobBuilds.map((pair) => pair.buildId)])];
    const [builds, agents] = await Promise.all([
      buildIds.length ? deps.repos.lookups.builds({ ids: buildIds, includeRetriedJobs: true }) : [],
      ids('agent').length ? deps.repos.lookups.agents(ids('agent')) : [],
    ]);
    const organizations = agents.length
      ? await deps.repos.notificationServices.organizations([
          ...new Set(agents.map((agent) => agent.organizationId)),
        ])
      : [];
    const buildById = new Map(builds.map((view) => [view.build.id, view]));
    const buildOfJob = new Map(jobBuilds.map((pair) => [pair.jobId, buildById.get(pair.buildId)]));
    const agentById = new Map(agents.map((agent) => [agent.id, agent]));
    const organizationById = new Map(organizations.map((organization) => [organization.id, organization]));

    const notifications: Notification[] = [];
    for (const { transition, event } of wanted) {
      const subject = subjectOf(transition);
      if (!subject) continue; // deleted since
      const where =
        subject.kind === 'agent'
          ? null
          : { pipelineId: subject.build.build.pipelineId, branch: subject.build.build.branch };
      for (const service of services) {
        if (service.organizationId !== transition.organizationId || !serviceWants(service, event, where))
          continue;
        notifications.push({ service, event, eventId: transition.eventId, subject });
      }
    }
    return notifications;

    function subjectOf(transition: Transition): NotificationSubject | null {
      if (transition.kind === 'build') {
        const build = buildById.get(transition.id);
        return build ? { kind: 'build', build } : null;
      }
      if (transition.kind === 'job') {
        const build = buildOfJob.get(transition.id);
        const job = build?.jobs.find((view) => view.job.id === transition.id);
        return build && job ? { kind: 'job', build, job } : null;
      }
      const agent = agentById.get(transition.id);
      const organization = agent ? organizationById.get(agent.organizationId) : undefined;
      return agent && organization ? { kind: 'agent', agent, organization } : null;
    }
  };

/** Stores and queues presented notifications (a fan-out run twice makes each delivery once). */
export const queueNotifications =
  (deps: Deps) =>
  async (notifications: ReadonlyArray<Notification & { body: string }>): Promise<number> => {
    const now = deps.clock.now();
    return deps.repos.notificationServices.queueDeliveries(
      notifications.map(
        (notification): NotificationDelivery => ({
          id: deps.newId(),
          serviceId: notification.service.id,
          event: notification.event,
          eventId: notification.eventId,
          requestBody: notification.body,
          state: 'pending',
          attempts: 0,
          responseStatus: null,
          error: null,
          durationMs: null,
          createdAt: now,
          lastAttemptAt: null,
        }),
      ),
    );
  };
