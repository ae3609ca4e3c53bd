import { describe, expect, it } from 'vitest';
import { AnswerMemory, type RememberedAnswer } from './answer-memory';

const answer = (bytes: number, revision = 'r1'): RememberedAnswer => ({
  revision,
  status: 200,
  headers: {},
  contentType: 'application/json',
  body: Buffer.alloc(bytes),
});

describe('AnswerMemory', () => {
  it('gives back what it was given for a key, and nothing for another', () => {
    const memory = new AnswerMemory(1000);
    const kept = answer(10);
    memory.remember('a', kept);
    expect(memory.recall('a', 'r1')).toBe(kept);
    expect(memory.recall('b', 'r1')).toBeUndefined();
  });

  it('gives an answer back only for the revision it was kept with', () => {
    const memory = new AnswerMemory(1000);
    memory.remember('a', answer(10, 'r1'));
    expect(memory.recall('a', 'r2')).toBeUndefined();
    expect(memory.recall('a', 'r1')?.revision).toBe('r1');
  });

  it('replaces the answer of a key, counting its bytes once', () => {
    const memory = new AnswerMemory(1000);
    memory.remember('a', answer(100, 'r1'));
    memory.remember('a', answer(200, 'r2'));
    expect(memory.recall('a', 'r2')?.revision).toBe('r2');
    expect(memory.size).toEqual({ answers: 1, bytes: 201 });
  });

  it('forgets the least recently used answers once past its bytes', () => {
    const memory = new AnswerMemory(300);
    memory.remember('a', answer(99));
    memory.remember('b', answer(99));
    memory.remember('c', answer(99));
    memory.recall('a', 'r1');
    memory.remember('d', answer(99));
    expect(memory.recall('b', 'r1')).toBeUndefined();
    expect(memory.recall('a', 'r1')).toBeDefined();
    expect(memory.recall('c', 'r1')).toBeDefined();
    expect(memory.recall('d', 'r1')).toBeDefined();
    expect(memory.size.bytes).toBeLessThanOrEqual(300);
  });

  it('keeps no answer larger than itself, and nothing at all with 0 bytes', () => {
    const memory = new AnswerMemory(50);
    memory.remember('a', answer(60));
    expect(memory.recall('a', 'r1')).toBeUndefined();
    const none = new AnswerMemory(0);
    none.remember('a', answer(0));
    expect(none.size).toEqual({ answers: 0, bytes: 0 });
  });

  it('forgets a key on demand', () => {
    const memory = new AnswerMemory(1000);
    memory.remember('a', answer(10));
    memory.forget('a');
    memory.forget('never');
    expect(memory.recall('a', 'r1')).toBeUndefined();
    expect(memory.size).toEqual({ answers: 0, bytes: 0 });
  });
});
