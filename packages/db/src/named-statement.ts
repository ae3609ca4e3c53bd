/**
 * An SQL statement with named parameters (`:build_id`), as pg's positional one (`$1`): a hot statement is
 * written whole with names, and its values are given by name, never by position.
 */
export interface NamedStatement {
  /** the text with `$n` for each name, in order of first use */
  readonly text: string;
  readonly names: readonly string[];
  /** The values in `$n` order; throws unless `params` names exactly the statement's parameters. */
  values(params: Readonly<Record<string, unknown>>): unknown[];
}

/** `:name` not preceded by a colon or a word character (`::uuid` casts and `a:b` are left alone). */
const PARAMETER = /(?<![:\w]):([a-z_][a-z0-9_]*)/g;

export function namedStatement(text: string): NamedStatement {
  const names: string[] = [];
  const positional = text.replace(PARAMETER, (_, name: string) => {
    let index = names.indexOf(name);
    if (index === -1) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  return {
    text: positional,
    names,
    values(params) {
      const given = Object.keys(params);
      if (given.length !== names.length || !names.every((name) => name in params)) {
        throw new Error(`statement parameters are ${names.join(', ')}; given ${given.join(', ')}`);
      }
      return names.map((name) => params[name]);
    },
  };
}
