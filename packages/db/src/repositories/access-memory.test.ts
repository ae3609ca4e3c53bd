import type { AccessToken, Pipeline, User } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { accessMemory, type RememberedAccess } from './access-memory';

const access = (id: string, catalogRevision = '1'): RememberedAccess => ({
  catalogRevision,
  pipelineRevision: '1',
  token: { id: `t-${id}`, scopes: ['read_builds'], organizationIds: null } as unknown as AccessToken,
  user: { id: 'u', name: 'Ada' } as unknown as User,
  facts: {
    organization: { id: 'o', slug: 'acme' },
    role: 'member',
    pipeline: { id, slug: id, env: { A: '1' }, tags: ['x'] } as unknown as Pipeline,
    teamAccessLevels: ['read_only'],
    pipelineHasTeams: true,
  } as unknown as RememberedAccess['facts'],
});

describe('access memory', () => {
  it('recalls what it was told for the token and slugs, and nothing for others', () => {
    const memory = accessMemory();
    memory.remember('h1', 'acme', 'web', access('web'));
    expect(memory.recall('h1', 'acme', 'web')?.token.id).toBe('t-web');
    expect(memory.recall('h2', 'acme', 'web')).toBeUndefined();
    expect(memory.recall('h1', 'acme', 'api')).toBeUndefined();
    expect(memory.recall('h1', 'other', 'web')).toBeUndefined();
    // Hashes and slugs are kept apart: no two triples make one key.
    memory.remember('h', '1a', 'b/c', access('x'));
    expect(memory.recall('h1', 'a', 'b/c')).toBeUndefined();
    expect(memory.recall('h', '1a/b', 'c')).toBeUndefined();
    expect(memory.recall('h', '1a', 'b/c')?.token.id).toBe('t-x');
  });

  it('keeps the last told, and forgets on demand', () => {
    const memory = accessMemory();
    memory.remember('h', 'acme', 'web', access('web', '7'));
    memory.remember('h', 'acme', 'web', access('web', '9'));
    expect(memory.recall('h', 'acme', 'web')?.catalogRevision).toBe('9');
    memory.forget('h', 'acme', 'web');
    expect(memory.recall('h', 'acme', 'web')).toBeUndefined();
  });

  it('freezes what it keeps, deeply: requests share it', () => {
    const memory = accessMemory();
    memory.remember('h', 'acme', 'web', access('web'));
    const kept = memory.recall('h', 'acme', 'web')!;
    expect(() => {
      (kept.token.scopes as string[]).push('write_builds');
    }).toThrow(TypeError);
    expect(() => {
      (kept.facts as { role: string }).role = 'admin';
    }).toThrow(TypeError);
    expect(() => {
      (kept.facts.teamAccessLevels as string[])[0] = 'manage_build_and_read';
    }).toThrow(TypeError);
    expect(() => {
      (kept.facts.pipeline.env as Record<string, string>).B = '2';
    }).toThrow(TypeError);
  });

  it('forgets the longest remembered past its capacity', () => {
    const memory = accessMemory(2);
    memory.remember('h', 'acme', 'a', access('a'));
    memory.remember('h', 'acme', 'b', access('b'));
    // Told again, `a` is the latest remembered: `b` goes first.
    memory.remember('h', 'acme', 'a', access('a', '2'));
    memory.remember('h', 'acme', 'c', access('c'));
    expect(memory.recall('h', 'acme', 'b')).toBeUndefined();
    expect(memory.recall('h', 'acme', 'a')?.catalogRevision).toBe('2');
    expect(memory.recall('h', 'acme', 'c')).toBeDefined();
  });
});
