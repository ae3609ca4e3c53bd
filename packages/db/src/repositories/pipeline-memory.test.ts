import type { Pipeline } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { pipelineMemory } from './pipeline-memory';

const pipeline = (id: string) =>
  ({
    id,
    slug: id,
    steps: [{ type: 'command', command: 'make' }],
    env: { A: '1' },
    tags: ['x'],
  }) as unknown as Pipeline;

describe('pipeline memory', () => {
  it('recalls what it was told for the slugs, and nothing for others', () => {
    const memory = pipelineMemory();
    memory.remember('acme', 'web', { id: 'p1', revision: '7', pipeline: pipeline('p1') });
    expect(memory.recall('acme', 'web')).toMatchObject({ id: 'p1', revision: '7' });
    expect(memory.recall('acme', 'api')).toBeUndefined();
    expect(memory.recall('other', 'web')).toBeUndefined();
    // Slugs are kept apart: no two pairs make one key.
    memory.remember('a', 'b\0c', { id: 'p2', revision: '1', pipeline: pipeline('p2') });
    expect(memory.recall('a\0b', 'c')).toBeUndefined();
  });

  it('keeps the last revision told', () => {
    const memory = pipelineMemory();
    memory.remember('acme', 'web', { id: 'p1', revision: '7', pipeline: pipeline('p1') });
    memory.remember('acme', 'web', { id: 'p1', revision: '9', pipeline: pipeline('p1') });
    expect(memory.recall('acme', 'web')?.revision).toBe('9');
  });

  it('freezes what it keeps, deeply: requests share it', () => {
    const memory = pipelineMemory();
    memory.remember('acme', 'web', { id: 'p1', revision: '7', pipeline: pipeline('p1') });
    const kept = memory.recall('acme', 'web')!.pipeline as unknown as {
      slug: string;
      steps: { command: string }[];
      env: Record<string, string>;
      tags: string[];
    };
    expect(() => {
      kept.slug = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      kept.steps[0]!.command = 'rm -rf';
    }).toThrow(TypeError);
    expect(() => {
      kept.env.B = '2';
    }).toThrow(TypeError);
    expect(() => kept.tags.push('y')).toThrow(TypeError);
  });

  it('forgets the longest remembered past its capacity', () => {
    const memory = pipelineMemory(2);
    memory.remember('acme', 'a', { id: 'a', revision: '1', pipeline: pipeline('a') });
    memory.remember('acme', 'b', { id: 'b', revision: '1', pipeline: pipeline('b') });
    // Told again, `a` is the latest remembered: `b` goes first.
    memory.remember('acme', 'a', { id: 'a', revision: '2', pipeline: pipeline('a') });
    memory.remember('acme', 'c', { id: 'c', revision: '1', pipeline: pipeline('c') });
    expect(memory.recall('acme', 'b')).toBeUndefined();
    expect(memory.recall('acme', 'a')?.revision).toBe('2');
    expect(memory.recall('acme', 'c')?.id).toBe('c');
  });
});
