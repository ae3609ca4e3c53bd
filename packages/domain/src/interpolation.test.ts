// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these texts are pipeline strings with variables, not templates
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interpolate } from './interpolation';

const env = { NAME: 'world', EMPTY: '', BRANCH: 'release/1.2', N: '0123456789' };

const value = (text: string) => {
  const result = interpolate(text, env);
  return result.ok ? result.value : { error: result.error.message };
};

describe('interpolate', () => {
  it.each([
    ['no variables', 'make test', 'make test'],
    ['$NAME', 'hello $NAME', 'hello world'],
    ['${NAME}', 'hello ${NAME}!', 'hello world!'],
    ['a name ends at the first other character', '$NAME.txt $NAME-x', 'world.txt world-x'],
    ['an unset $NAME is empty', 'a${UNSET}b $UNSET', 'ab '],
    ['a name may hold digits and underscores', '${_A1}', ''],
    ['$$ is a literal $', 'echo $$NAME $${NAME}', 'echo $NAME ${NAME}'],
    ['\\$ is a literal $', 'echo \\$NAME', 'echo $NAME'],
    ['$$$NAME escapes one $ then interpolates', '$$$NAME', '$world'],
    ['a $ that starts no variable stays', 'cost $5, $ and $', 'cost $5, $ and $'],
    ['a lone backslash stays', 'a\\b \\n', 'a\\b \\n'],
    [':- takes the default when unset', '${UNSET:-fallback}', 'fallback'],
    [':- takes the default when empty', '${EMPTY:-fallback}', 'fallback'],
    [':- keeps a set value', '${NAME:-fallback}', 'world'],
    ['- takes the default only when unset', '${UNSET-a}|${EMPTY-b}|${NAME-c}', 'a||world'],
    ['a default is interpolated in turn', '${UNSET:-$NAME and ${BRANCH}}', 'world and release/1.2'],
    ['an empty default', '${UNSET:-}', ''],
    [':offset', '${N:3}', '3456789'],
    [':offset:length', '${N:2:3}', '234'],
    ['a negative offset with a space', '${N: -3}', '789'],
    ['a negative offset in parentheses', '${N:(-3):2}', '78'],
    ['an offset past the end', '${N:20}', ''],
    ['a substring of an unset variable', '${UNSET:1:2}', ''],
    ['? keeps a set value', '${NAME?must be set}', 'world'],
    [':? keeps a set value', '${NAME:?must be set}', 'world'],
    ['? accepts an empty value', '[${EMPTY?must be set}]', '[]'],
    ['multiline text', 'echo $NAME\necho ${BRANCH}\n', 'echo world\necho release/1.2\n'],
  ])('%s', (_name, text, expected) => {
    expect(value(text)).toEqual(expected);
  });

  it.each([
    ['? refuses an unset variable with its message', '${UNSET?give it}', 'UNSET: give it'],
    [':? refuses an empty variable', '${EMPTY:?}', 'EMPTY: not set or empty'],
    ['? without a message', '${UNSET?}', 'UNSET: not set'],
    ['an unterminated ${', 'echo ${NAME', 'unterminated ${ in "${NAME"'],
    ['an empty ${}', '${}', 'bad substitution: ${}'],
    ['a name starting with a digit', '${1A}', 'bad substitution: ${1A}'],
    ['an unknown operator', '${NAME/a/b}', 'bad substitution: ${NAME/a/b}'],
    ['a bad offset', '${N:x}', 'bad substitution: ${N:x}'],
    ['a problem inside a default', '${UNSET:-${ALSO?missing}}', 'ALSO: missing'],
  ])('refuses %s', (_name, text, message) => {
    expect(value(text)).toEqual({ error: message });
  });

  it('leaves text without $ or \\ unchanged', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('$') && !s.includes('\\')),
        (text) => {
          expect(value(text)).toBe(text);
        },
      ),
    );
  });

  it('gives back any text whose $ are escaped as $$', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('\\')),
        (text) => {
          expect(value(text.replaceAll('$', () => '$$'))).toBe(text);
        },
      ),
    );
  });

  it('puts a value in as it is, never interpolating it again', () => {
    fc.assert(
      fc.property(fc.string(), (inner) => {
        const result = interpolate('<$X>', { X: inner });
        expect(result.ok && result.value).toBe(`<${inner}>`);
      }),
    );
  });
});
