import { buildTag } from './build-input';
import type { Build, Pipeline } from './entities';
import { err, ok, type Result } from './result';

/**
 * A step's `if`: a subset of the public expression syntax. Values are strings, numbers, booleans and
 * null; `==` and `!=` compare them, `=~` and `!~` match them against a regular expression literal
 * (`/pattern/` or `/pattern/i`), `&&`, `||`, `!` and parentheses combine them, and the variables are
 * {@link CONDITION_VARIABLES}. Patterns are compiled by a linear-time {@link RegexEngine} (RE2): a
 * pattern from a pipeline file cannot backtrack for minutes on a long message.
 */
export type Condition =
  | { kind: 'literal'; value: ConditionValue }
  | { kind: 'variable'; name: ConditionVariable }
  | { kind: 'not'; operand: Condition }
  | { kind: 'and' | 'or'; left: Condition; right: Condition }
  | { kind: 'equals' | 'differs'; left: Condition; right: Condition }
  | { kind: 'matches' | 'mismatches'; left: Condition; pattern: string; test: RegexMatcher };

/** Whether a compiled pattern matches somewhere in a text. */
export type RegexMatcher = (text: string) => boolean;

/**
 * Compiles a condition's pattern, or says what is wrong with it. The domain takes no package, so the
 * caller passes a linear-time engine in (the application's RE2).
 */
export type RegexEngine = (
  pattern: string,
  options: { caseInsensitive: boolean },
) => Result<RegexMatcher, string>;

export type ConditionValue = string | number | boolean | null;

/** The facts of a build a condition may read. */
export interface ConditionFacts {
  branch: string;
  commit: string;
  message: string | null;
  source: string;
  tag: string | null;
  pullRequestId: string | null;
  pullRequestBaseBranch: string | null;
  pipelineSlug: string;
  pipelineDefaultBranch: string | null;
  organizationSlug: string;
}

/** The facts of a new build of `pipeline` in the organization `organizationSlug`. */
export function conditionFacts(
  build: Pick<Build, 'branch' | 'commit' | 'message' | 'source' | 'pullRequest'>,
  pipeline: Pick<Pipeline, 'slug' | 'defaultBranch'>,
  organizationSlug: string,
): ConditionFacts {
  return {
    branch: build.branch,
    commit: build.commit,
    message: build.message,
    source: build.source,
    tag: buildTag(build.commit),
    pullRequestId: build.pullRequest?.id ?? null,
    pullRequestBaseBranch: build.pullRequest?.base ?? null,
    pipelineSlug: pipeline.slug,
    pipelineDefaultBranch: pipeline.defaultBranch,
    organizationSlug,
  };
}

export const CONDITION_VARIABLES = {
  'build.branch': (facts) => facts.branch,
  'build.commit': (facts) => facts.commit,
  'build.message': (facts) => facts.message,
  'build.source': (facts) => facts.source,
  'build.tag': (facts) => facts.tag,
  'build.pull_request.id': (facts) => facts.pullRequestId,
  'build.pull_request.base_branch': (facts) => facts.pullRequestBaseBranch,
  'pipeline.slug': (facts) => facts.pipelineSlug,
  'pipeline.default_branch': (facts) => facts.pipelineDefaultBranch,
  'organization.slug': (facts) => facts.organizationSlug,
} satisfies Record<string, (facts: ConditionFacts) => ConditionValue>;

export type ConditionVariable = keyof typeof CONDITION_VARIABLES;

/** Longer conditions are refused: a step's `if` is a line, not a program. */
export const MAX_CONDITION_LENGTH = 1000;
/** Longer patterns are refused: a branch or message test needs no more, and RE2's work grows with it. */
export const MAX_CONDITION_PATTERN_LENGTH = 256;
/** The public syntax's one flag: `i`, case-insensitive. */
const PATTERN_FLAGS = new Set(['i']);

type Token =
  | { type: 'value'; value: ConditionValue }
  | { type: 'name'; name: string }
  | { type: 'regex'; pattern: string; flags: string }
  | { type: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' | '!' | '(' | ')' };

/**
 * The regular expression literal at `start` (its opening `/`): the pattern up to the next `/` that is
 * neither escaped nor inside a character class, then its flags.
 */
function readRegexLiteral(
  text: string,
  start: number,
): Result<{ token: Token & { type: 'regex' }; end: number }, string> {
  let i = start + 1;
  let inClass = false;
  while (i < text.length && (inClass || text[i] !== '/')) {
    if (text[i] === '\\') i++;
    else if (text[i] === '[') inClass = true;
    else if (text[i] === ']') inClass = false;
    i++;
  }
  if (i >= text.length) return err('a regular expression is not closed (expected /pattern/)');
  const pattern = text.slice(start + 1, i);
  if (pattern === '') return err('a regular expression is empty');
  if (pattern.length > MAX_CONDITION_PATTERN_LENGTH) {
    return err(`a regular expression is longer than ${MAX_CONDITION_PATTERN_LENGTH} characters`);
  }
  const flags = /^[A-Za-z0-9_]*/.exec(text.slice(i + 1))![0];
  for (const flag of flags) {
    if (!PATTERN_FLAGS.has(flag)) {
      return err(
        `unsupported regular expression flag "${flag}" in /${pattern}/${flags} (only "i" is supported)`,
      );
    }
  }
  return ok({ token: { type: 'regex', pattern, flags }, end: i + 1 + flags.length });
}

function tokenize(text: string): Result<Token[], string> {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"' || c === "'") {
      let value = '';
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        value += text[i];
        i++;
      }
      if (i >= text.length) return err('a string is not closed');
      i++;
      tokens.push({ type: 'value', value });
    } else if (/[0-9]/.test(c)) {
      const number = /^[0-9]+(\.[0-9]+)?/.exec(text.slice(i))![0];
      tokens.push({ type: 'value', value: Number(number) });
      i += number.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const name = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i))![0];
      i += name.length;
      if (name === 'true' || name === 'false') tokens.push({ type: 'value', value: name === 'true' });
      else if (name === 'null') tokens.push({ type: 'value', value: null });
      else tokens.push({ type: 'name', name });
    } else {
      const two = text.slice(i, i + 2);
      if (two === '==' || two === '!=' || two === '&&' || two === '||') {
        tokens.push({ type: 'op', op: two });
        i += 2;
      } else if (two === '=~' || two === '!~') {
        tokens.push({ type: 'op', op: two });
        i += 2;
        // Only here does a "/" open a regular expression: nowhere else does the syntax have one.
        while (i < text.length && /\s/.test(text[i]!)) i++;
        if (text[i] !== '/') return err(`${two} must be followed by a regular expression, like /pattern/`);
        const literal = readRegexLiteral(text, i);
        if (!literal.ok) return literal;
        tokens.push(literal.value.token);
        i = literal.value.end;
      } else if (c === '/') {
        return err('a regular expression may only follow =~ or !~');
      } else if (c === '!' || c === '(' || c === ')') {
        tokens.push({ type: 'op', op: c });
        i++;
      } else {
        return err(`unexpected "${c}"`);
      }
    }
  }
  return ok(tokens);
}

/** Reads a step's `if`, compiling its patterns with `regex`; the message says what is wrong. */
export function parseCondition(text: string, regex: RegexEngine): Result<Condition, string> {
  if (text.length > MAX_CONDITION_LENGTH) return err(`longer than ${MAX_CONDITION_LENGTH} characters`);
  const tokens = tokenize(text);
  if (!tokens.ok) return tokens;
  const list = tokens.value;
  let position = 0;
  let depth = 0;
  const peek = () => list[position];
  const isOp = (op: string) => {
    const token = peek();
    return token?.type === 'op' && token.op === op;
  };

  function or(): Result<Condition, string> {
    let left = and();
    while (left.ok && isOp('||')) {
      position++;
      const right = and();
      if (!right.ok) return right;
      left = ok({ kind: 'or', left: left.value, right: right.value });
    }
    return left;
  }
  function and(): Result<Condition, string> {
    let left = not();
    while (left.ok && isOp('&&')) {
      position++;
      const right = not();
      if (!right.ok) return right;
      left = ok({ kind: 'and', left: left.value, right: right.value });
    }
    return left;
  }
  function not(): Result<Condition, string> {
    if (!isOp('!')) return comparison();
    position++;
    const operand = not();
    return operand.ok ? ok({ kind: 'not', operand: operand.value }) : operand;
  }
  function comparison(): Result<Condition, string> {
    const left = primary();
    if (left.ok && (isOp('=~') || isOp('!~'))) {
      const kind = isOp('=~') ? 'matches' : 'mismatches';
      // The tokenizer put the literal right behind the operator.
      const literal = list[position + 1] as Token & { type: 'regex' };
      position += 2;
      const test = regex(literal.pattern, { caseInsensitive: literal.flags.includes('i') });
      if (!test.ok) return err(`invalid regular expression /${literal.pattern}/: ${test.error}`);
      return ok({ kind, left: left.value, pattern: literal.pattern, test: test.value });
    }
    if (!left.ok || !(isOp('==') || isOp('!='))) return left;
    const kind = isOp('==') ? 'equals' : 'differs';
    position++;
    const right = primary();
    return right.ok ? ok({ kind, left: left.value, right: right.value }) : right;
  }
  function primary(): Result<Condition, string> {
    const token = peek();
    if (!token) return err('the expression ends too early');
    position++;
    if (token.type === 'value') return ok({ kind: 'literal', value: token.value });
    if (token.type === 'regex') return err('a regular expression may only follow =~ or !~');
    if (token.type === 'name') {
      if (!(token.name in CONDITION_VARIABLES)) return err(`unknown variable "${token.name}"`);
      return ok({ kind: 'variable', name: token.name as ConditionVariable });
    }
    if (token.op === '(') {
      // Nesting is bounded by the length limit; depth only guards the stack against "((((…".
      if (++depth > 32) return err('too deeply nested');
      const inner = or();
      if (!inner.ok) return inner;
      if (!isOp(')')) return err('a "(" is not closed');
      position++;
      depth--;
      return inner;
    }
    return err(`unexpected "${token.op}"`);
  }

  if (list.length === 0) return err('the expression is empty');
  const condition = or();
  if (!condition.ok) return condition;
  const rest = peek();
  if (rest) return err(`unexpected "${tokenText(rest)}"`);
  return condition;
}

function tokenText(token: Token): string {
  switch (token.type) {
    case 'op':
      return token.op;
    case 'name':
      return token.name;
    case 'regex':
      return `/${token.pattern}/${token.flags}`;
    case 'value':
      return String(token.value);
  }
}

/** Whether a build with these facts runs the step; a bare value counts as true unless false, null or "". */
export function conditionHolds(condition: Condition, facts: ConditionFacts): boolean {
  return truthy(evaluate(condition, facts));
}

function evaluate(condition: Condition, facts: ConditionFacts): ConditionValue {
  switch (condition.kind) {
    case 'literal':
      return condition.value;
    case 'variable':
      return CONDITION_VARIABLES[condition.name](facts);
    case 'not':
      return !truthy(evaluate(condition.operand, facts));
    case 'and':
      return truthy(evaluate(condition.left, facts)) && truthy(evaluate(condition.right, facts));
    case 'or':
      return truthy(evaluate(condition.left, facts)) || truthy(evaluate(condition.right, facts));
    case 'equals':
      return evaluate(condition.left, facts) === evaluate(condition.right, facts);
    case 'differs':
      return evaluate(condition.left, facts) !== evaluate(condition.right, facts);
    case 'matches':
    case 'mismatches': {
      // Only a string matches: a null tag or message matches no pattern.
      const value = evaluate(condition.left, facts);
      const matched = typeof value === 'string' && condition.test(value);
      return condition.kind === 'matches' ? matched : !matched;
    }
  }
}

function truthy(value: ConditionValue): boolean {
  return value !== false && value !== null && value !== '' && value !== 0;
}
