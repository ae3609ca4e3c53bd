import type { AgentRef } from '@ci/application';
import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { listPage } from '../pagination';
import { organizationSlug, pageParameters } from '../parameters';
import { authed, router } from '../trpc';
import { presentAgent, presentAgents } from './agent.presenter';
import { AgentResourceWire, type PauseAgentRequest, type StopAgentRequest } from './agent.wire';

const AGENTS = '/organizations/{organization}/agents';
const AGENT = `${AGENTS}/{agent}`;
const TAGS = ['Agents'];

const organization = organizationSlug;
const agent = z.string().meta({ description: 'agent UUID' });
const exact = (description: string) => z.string().optional().meta({ description });

const ListAgentsInput = z.object({
  organization,
  name: exact('only agents of this name'),
  hostname: exact('only agents on this host'),
  version: exact('only agents of this version'),
  ...pageParameters,
});
const AgentKey = z.object({ organization, agent });

/** The stop and pause bodies are the domain's to check (422 naming the field): passed through untouched. */
const StopAgentInput = z.looseObject({ organization, agent }) as unknown as z.ZodType<
  AgentRef & StopAgentRequest
>;
const PauseAgentInput = z.looseObject({ organization, agent }) as unknown as z.ZodType<
  AgentRef & PauseAgentRequest
>;

export const agentsRouter = router({
  list: authed
    .meta({
      openapi: {
        method: 'GET',
        path: AGENTS,
        tags: TAGS,
        summary: 'List agents',
        description: 'The agents still there (not disconnected or stopped), oldest first.',
      },
      operation: 'listAgents',
    })
    .input(ListAgentsInput)
    .output(documentedList(AgentResourceWire))
    .query(async ({ ctx, input }) => {
      const query = { name: input.name, hostname: input.hostname, version: input.version };
      const { items } = await listPage(ctx, input, (page) =>
        ctx.useCases.listAgentViews(ctx.actor, input.organization, query, page),
      );
      return presentAgents(items, input.organization, ctx.urls);
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: AGENT, tags: TAGS, summary: 'Get an agent' },
      operation: 'getAgent',
    })
    .input(AgentKey)
    .output(documented(AgentResourceWire))
    .query(async ({ ctx, input }) =>
      presentAgent(await ctx.useCases.getAgentView(ctx.actor, input), input.organization, ctx.urls),
    ),

  stop: authed
    .meta({
      openapi: {
        method: 'PUT',
        path: `${AGENT}/stop`,
        tags: TAGS,
        summary: 'Stop an agent',
        description:
          'It takes no new job and disconnects; with `force` its current job is canceled, else it finishes it first.',
      },
      operation: 'stopAgent',
      successStatus: 204,
      requestBody: 'StopAgentRequest',
      requestBodyOptional: true,
    })
    .input(StopAgentInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      const { organization, agent, ...body } = input;
      await ctx.useCases.stopAgent(ctx.actor, { organization, agent }, body);
    }),

  pause: authed
    .meta({
      openapi: {
        method: 'PUT',
        path: `${AGENT}/pause`,
        tags: TAGS,
        summary: 'Pause an agent',
        description: 'It stays connected and takes no new job until resumed or the timeout passes.',
      },
      operation: 'pauseAgent',
      successStatus: 204,
      requestBody: 'PauseAgentRequest',
      requestBodyOptional: true,
    })
    .input(PauseAgentInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      const { organization, agent, ...body } = input;
      await ctx.useCases.pauseAgent(ctx.actor, { organization, agent }, body);
    }),

  resume: authed
    .meta({
      openapi: { method: 'PUT', path: `${AGENT}/resume`, tags: TAGS, summary: 'Resume an agent' },
      operation: 'resumeAgent',
      successStatus: 204,
    })
    .input(AgentKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.resumeAgent(ctx.actor, input);
    }),
});
