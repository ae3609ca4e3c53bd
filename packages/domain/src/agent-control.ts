import type { Agent } from './entities';
import { unprocessable } from './errors';
import { err, ok, type Result } from './result';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';

/**
 * What the REST API's stop, pause and resume do to an agent, and what an agent's ping is told.
 * `stopping`: asked to stop, it takes no new job and disconnects once its job is done; a disconnect
 * then leaves it `stopped`. A paused agent stays connected and takes no new job until it is resumed or
 * its pause times out. `lost`: silent for longer than the server waits (a connect brings it back).
 */
export const AGENT_CONNECTION_STATES = [
  'registered',
  'connected',
  'stopping',
  'stopped',
  'disconnected',
  'lost',
] as const;
export type AgentConnectionState = (typeof AGENT_CONNECTION_STATES)[number];

/** Agents that have gone: REST's list leaves them out, and a ping from one is told to disconnect. */
export const GONE_AGENT_STATES = ['disconnected', 'stopped', 'lost'] as const;

/** Agents that a silence longer than the server waits leaves `lost`. */
export const LOSABLE_AGENT_STATES = ['connected', 'stopping'] as const;

/** The connection state a disconnect leaves: a stop requested ends as `stopped`. */
export function connectionStateAfterDisconnect(state: string): AgentConnectionState {
  return state === 'stopping' ? 'stopped' : 'disconnected';
}

type AgentControlState = Pick<Agent, 'connectionState' | 'pausedUntil'>;

export function isGone(agent: Pick<Agent, 'connectionState'>): boolean {
  return (GONE_AGENT_STATES as readonly string[]).includes(agent.connectionState);
}

export function isPaused(agent: Pick<Agent, 'pausedUntil'>, at: Date): boolean {
  return agent.pausedUntil !== null && agent.pausedUntil.getTime() > at.getTime();
}

/** A ping's `action`, as the public agent protocol names them. */
export type AgentAction = 'idle' | 'pause' | 'disconnect';

/** What a ping answers; only an `idle` agent may be given a new job. */
export function agentAction(agent: AgentControlState, at: Date): AgentAction {
  if (agent.connectionState === 'stopping' || isGone(agent)) return 'disconnect';
  if (isPaused(agent, at)) return 'pause';
  return 'idle';
}

/** Whether the dispatcher may give the agent a new job now. */
export function mayTakeNewJob(agent: AgentControlState, at: Date): boolean {
  return agentAction(agent, at) === 'idle';
}

export interface StopRequest {
  /** true: its current job is canceled; false: it finishes its job first */
  force: boolean;
}

export interface PauseRequest {
  note: string | null;
  timeoutInMinutes: number;
}

export const PAUSE_LIMITS = { defaultMinutes: 5, maxMinutes: 10_080, note: 1_000 } as const;

function body(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

/** The stop body, `{"force": bool}`; an empty body or none is `force: false`. */
export function parseStopRequest(input: unknown): Result<StopRequest> {
  const force = body(input).force ?? false;
  if (typeof force !== 'boolean') return err(unprocessable('invalid_force', 'force must be true or false'));
  return ok({ force });
}

/** The pause body, `{"note": string, "timeout_in_minutes": int}`, both optional (5 minutes by default). */
export function parsePauseRequest(input: unknown): Result<PauseRequest> {
  const { note = null, timeout_in_minutes: minutes = PAUSE_LIMITS.defaultMinutes } = body(input);
  if (note !== null && typeof note !== 'string') {
    return err(unprocessable('invalid_note', 'note must be a string'));
  }
  if (note !== null && !isStorableText(note)) {
    return err(unprocessable('invalid_note', `note ${UNSTORABLE_TEXT}`));
  }
  if (note !== null && note.length > PAUSE_LIMITS.note) {
    return err(
      unprocessable('invalid_note', `note is too long (maximum is ${PAUSE_LIMITS.note} characters)`),
    );
  }
  if (
    typeof minutes !== 'number' ||
    !Number.isInteger(minutes) ||
    minutes < 1 ||
    minutes > PAUSE_LIMITS.maxMinutes
  ) {
    return err(
      unprocessable(
        'invalid_timeout',
        `timeout_in_minutes must be a whole number from 1 to ${PAUSE_LIMITS.maxMinutes}`,
      ),
    );
  }
  return ok({ note: note === '' ? null : note, timeoutInMinutes: minutes });
}

const notConnected = () => unprocessable('agent_not_connected', 'The agent is not connected');

/** Asks the agent to stop; stopping one already stopping is no change (a `force` may still cancel its job). */
export function stopAgent<A extends Agent>(agent: A): Result<A> {
  if (isGone(agent)) return err(notConnected());
  return ok({ ...agent, connectionState: 'stopping' });
}

export function pauseAgent<A extends Agent>(agent: A, request: PauseRequest, at: Date): Result<A> {
  if (isGone(agent)) return err(notConnected());
  if (agent.connectionState === 'stopping') {
    return err(unprocessable('agent_stopping', 'The agent is stopping'));
  }
  return ok({
    ...agent,
    pausedAt: at,
    pauseNote: request.note,
    pausedUntil: new Date(at.getTime() + request.timeoutInMinutes * 60_000),
  });
}

export function resumeAgent<A extends Agent>(agent: A, at: Date): Result<A> {
  if (!isPaused(agent, at)) return err(unprocessable('agent_not_paused', 'The agent is not paused'));
  return ok({ ...agent, pausedAt: null, pauseNote: null, pausedUntil: null });
}
