import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerMemory, DEFLATED_UP_TO, type RememberedAnswer } from './answer-memory';

const answer = (bytes: number, revision = 'r1'): RememberedAnswer => ({
  revision,
  status: 200,
  headers: {},
  contentType: 'application/json',
  body: Buffer.alloc(bytes),
});

/**
 * The ring at work on bodies as given (none deflated), never in use once given back: what the hand does is
 * the same whenever the GC runs.
 */
const asGiven = { watch: (_body: Buffer, released: () => void) => released(), deflatedUpTo: -1 };

describe('AnswerMemory', () => {
  it('gives back what it was given for a key, and nothing for another', () => {
    const memory = new AnswerMemory(1000, asGiven);
    const kept = answer(10);
    memory.remember('a', kept);
    expect(memory.recall('a', 'r1')).toEqual(kept);
    expect(memory.recall('b', 'r1')).toBeUndefined();
  });

  it('gives an answer back only for the revision it was kept with', () => {
    const memory = new AnswerMemory(1000, asGiven);
    memory.remember('a', answer(10, 'r1'));
    expect(memory.recall('a', 'r2')).toBeUndefined();
    expect(memory.recall('a', 'r1')?.revision).toBe('r1');
  });

  it('replaces the answer of a key, counting its bytes once', () => {
    const memory = new AnswerMemory(1000, asGiven);
    memory.remember('a', answer(100, 'r1'));
    memory.remember('a', answer(200, 'r2'));
    expect(memory.recall('a', 'r2')?.revision).toBe('r2');
    expect(memory.size).toEqual({ answers: 1, bytes: 201 });
  });

  it('forgets first the answers not asked for again, once past its bytes', () => {
    const memory = new AnswerMemory(300, asGiven);
    const filled = (key: string) => ({ ...answer(0), body: Buffer.alloc(99, key) });
    for (const key of ['a', 'b', 'c']) memory.remember(key, filled(key));
    memory.recall('a', 'r1');
    memory.remember('d', filled('d'));
    expect(memory.recall('b', 'r1')).toBeUndefined();
    for (const key of ['a', 'c', 'd']) expect(memory.recall(key, 'r1')?.body).toEqual(filled(key).body);
    expect(memory.size.bytes).toBeLessThanOrEqual(300);
    // All three asked for again since: the next one takes the place of the one the hand came to first.
    memory.remember('e', filled('e'));
    expect(['a', 'c', 'd', 'e'].filter((key) => memory.revisionOf(key) !== undefined)).toEqual([
      'a',
      'd',
      'e',
    ]);
    for (const key of ['a', 'd', 'e']) expect(memory.recall(key, 'r1')?.body).toEqual(filled(key).body);
  });

  it('keeps no answer larger than itself, and nothing at all with 0 bytes', () => {
    const memory = new AnswerMemory(50, asGiven);
    memory.remember('a', answer(60));
    expect(memory.recall('a', 'r1')).toBeUndefined();
    const none = new AnswerMemory(0, asGiven);
    none.remember('a', answer(0));
    expect(none.size).toEqual({ answers: 0, bytes: 0 });
  });

  it("tells a key's revision without making its answer the most recently used", () => {
    const memory = new AnswerMemory(200, asGiven);
    memory.remember('a', answer(99, 'r7'));
    memory.remember('b', answer(99));
    expect(memory.revisionOf('a')).toBe('r7');
    expect(memory.revisionOf('none')).toBeUndefined();
    memory.remember('c', answer(99));
    expect(memory.revisionOf('a')).toBeUndefined();
    expect(memory.revisionOf('b')).toBe('r1');
  });

  it('forgets a key on demand', () => {
    const memory = new AnswerMemory(1000, asGiven);
    memory.remember('a', answer(10));
    memory.forget('a');
    memory.forget('never');
    expect(memory.recall('a', 'r1')).toBeUndefined();
    expect(memory.size).toEqual({ answers: 0, bytes: 0 });
  });

  it('never writes over a body given back while it may be in use, forgotten or not', () => {
    // The first body given back stays in use until it is sent; the others are sent at once.
    let send: (() => void) | undefined;
    const memory = new AnswerMemory(100, {
      watch: (_body, released) => {
        if (send) released();
        else send = released;
      },
      deflatedUpTo: -1,
    });
    memory.remember('a', { ...answer(0), body: Buffer.from('a'.repeat(40)) });
    const given = memory.recall('a', 'r1')?.body ?? Buffer.alloc(0);
    memory.forget('a');
    // Answers that follow take the other bytes, each in turn.
    for (const key of ['b', 'c', 'd']) {
      memory.remember(key, { ...answer(0), body: Buffer.from(key.repeat(59)) });
      expect(given.toString()).toBe('a'.repeat(40));
      expect(memory.recall(key, 'r1')?.body.toString()).toBe(key.repeat(59));
    }
    // One that only its bytes would make room for is not kept while it is in use.
    memory.remember('e', { ...answer(0), body: Buffer.from('e'.repeat(70)) });
    expect(memory.revisionOf('e')).toBeUndefined();
    expect(given.toString()).toBe('a'.repeat(40));
    // Sent: its bytes are free again.
    send?.();
    memory.remember('e', { ...answer(0), body: Buffer.from('e'.repeat(70)) });
    expect(memory.recall('e', 'r1')?.body.toString()).toBe('e'.repeat(70));
  });

  it('tells a body in use by whether it was collected yet, unless told otherwise', () => {
    const memory = new AnswerMemory(100, { deflatedUpTo: -1 });
    memory.remember('a', { ...answer(0), body: Buffer.from('a'.repeat(40)) });
    const held = memory.recall('a', 'r1');
    for (const key of ['b', 'c', 'd'])
      memory.remember(key, { ...answer(0), body: Buffer.from(key.repeat(60)) });
    expect(held?.body.toString()).toBe('a'.repeat(40));
    expect(memory.recall('a', 'r1')?.body.toString()).toBe('a'.repeat(40));
  });

  it('never writes over an answer kept: going on from the start, it passes what is left at the end first', () => {
    const memory = new AnswerMemory(400, asGiven);
    const given = new Map<string, Buffer>();
    const remember = (key: string, bytes: number) => {
      const body = Buffer.alloc(bytes, key);
      given.set(key, body);
      memory.remember(key, { ...answer(0), body });
    };
    remember('a', 349);
    remember('b', 9);
    memory.forget('a');
    remember('c', 99); // at the start: 'b' is left near the end
    remember('d', 99);
    memory.forget('d');
    remember('e', 209); // too long for what is left before the end
    for (const [key, body] of given) {
      if (memory.revisionOf(key) !== undefined) expect(memory.recall(key, 'r1')?.body, key).toEqual(body);
    }
    expect(memory.revisionOf('e')).toBe('r1');
  });

  it('keeps an answer asked for again and again while a stream of others passes through', () => {
    const memory = new AnswerMemory(1000, asGiven);
    memory.remember('hot', answer(300));
    for (let i = 0; i < 100; i++) {
      memory.remember(`once-${i}`, answer(90 + (i % 20)));
      expect(memory.recall('hot', 'r1')?.body.length).toBe(300);
    }
    expect(memory.size.bytes).toBeLessThanOrEqual(1000);
    // The others made room for one another: the most recent ones are there.
    expect(memory.revisionOf('once-99')).toBe('r1');
    expect(memory.revisionOf('once-0')).toBeUndefined();
  });

  it.each([
    ['as given', asGiven],
    ['deflated', { watch: asGiven.watch, deflatedUpTo: undefined }],
  ])(
    'keeps each answer as it was given (bodies kept %s), within its bytes, whatever the turnover',
    (_kept, options) => {
      const deflated = options.deflatedUpTo === undefined;
      type Step =
        | { op: 'remember'; key: string; bytes: number; revision: string }
        | { op: 'recall'; key: string; revision: string }
        | { op: 'forget'; key: string };
      const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
      const revision = fc.constantFrom('r1', 'r2');
      const step: fc.Arbitrary<Step> = fc.oneof(
        {
          weight: 3,
          arbitrary: fc.record({ op: fc.constant('remember' as const), key, bytes: fc.nat(120), revision }),
        },
        { weight: 3, arbitrary: fc.record({ op: fc.constant('recall' as const), key, revision }) },
        { weight: 1, arbitrary: fc.record({ op: fc.constant('forget' as const), key }) },
      );
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 300 }),
          fc.array(step, { maxLength: 300 }),
          (maxBytes, steps) => {
            const memory = new AnswerMemory(maxBytes, options);
            // What each key was last given; a forgotten key is never given back.
            const given = new Map<string, { revision: string; body: Buffer }>();
            let serial = 0;
            for (const s of steps) {
              if (s.op === 'remember') {
                const body = Buffer.alloc(s.bytes, serial++ % 251);
                memory.remember(s.key, { ...answer(0, s.revision), body });
                given.set(s.key, { revision: s.revision, body });
                // The answer just given is kept unless it is larger than the memory (deflated: unless it may be,
                // with deflate's few bytes of its own).
                if (!deflated) {
                  expect(memory.revisionOf(s.key) !== undefined).toBe(s.key.length + s.bytes <= maxBytes);
                } else if (s.key.length + s.bytes + 16 <= maxBytes) {
                  expect(memory.revisionOf(s.key)).toBe(s.revision);
                }
              } else if (s.op === 'recall') {
                const recalled = memory.recall(s.key, s.revision);
                const last = given.get(s.key);
                if (recalled) {
                  expect(last?.revision).toBe(s.revision);
                  expect(recalled.body.equals(last?.body ?? Buffer.alloc(0))).toBe(true);
                }
              } else {
                memory.forget(s.key);
                given.delete(s.key);
              }
              // The bytes counted are those of the answers kept, within the memory's (looked at without a recall,
              // which would keep them longer).
              let bytes = 0;
              let answers = 0;
              for (const [k, last] of given) {
                const revisionKept = memory.revisionOf(k);
                if (revisionKept === undefined) continue;
                expect(revisionKept).toBe(last.revision);
                bytes += k.length + last.body.length;
                answers++;
              }
              expect(memory.size.answers).toBe(answers);
              if (!deflated) expect(memory.size.bytes).toBe(bytes);
              expect(memory.size.bytes).toBeLessThanOrEqual(maxBytes);
            }
            // Every answer kept is as it was last given, whatever was written since.
            for (const [k, last] of given) {
              if (memory.revisionOf(k) === undefined) continue;
              expect(memory.recall(k, last.revision)?.body.equals(last.body)).toBe(true);
            }
          },
        ),
        { numRuns: 1000 },
      );
    },
  );

  it('keeps small bodies deflated, counting them as kept, and gives them back as they were', () => {
    const memory = new AnswerMemory(10_000);
    const build = Buffer.from(
      JSON.stringify({ jobs: Array.from({ length: 5 }, (_, i) => ({ id: i, state: 'passed' })) }),
    );
    memory.remember('build', { ...answer(0), body: build });
    expect(memory.size.bytes).toBeLessThan('build'.length + build.length);
    expect(memory.recall('build', 'r1')?.body.equals(build)).toBe(true);
    // Larger ones as they are: given back as views of the ring.
    const page = Buffer.alloc(DEFLATED_UP_TO + 1, 'x');
    const large = new AnswerMemory(DEFLATED_UP_TO * 2);
    large.remember('page', { ...answer(0), body: page });
    expect(large.size.bytes).toBe('page'.length + page.length);
    expect(large.recall('page', 'r1')?.body.equals(page)).toBe(true);
  });
});
