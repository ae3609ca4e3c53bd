/**
 * An SQL statement with named parameters (`:build_id`), as pg's positional one (`$1`): a hot statement is
 * written whole with names, and its values are given by name, never by position.
 */
export interface NamedStatement<Name extends string> {
  /** the text with `$n` for each name, in order of first use */
  readonly text: string;
  readonly names: readonly Name[];
  values(params: Readonly<Record<Name, unknown>>): unknown[];
}

/** `:name` not preceded by a colon or a word character (`::uuid` casts and `a:b` are left alone). */
const PARAMETER = /(?<![:\w]):([a-z_][a-z0-9_]*)/g;

/** Throws at once (module load) when `names` are not exactly the names the text uses. */
export function namedStatement<const Name extends string>(
  text: string,
  names: readonly Name[],
): NamedStatement<Name> {
  const order: string[] = [];
  const positional = text.replace(PARAMETER, (_, name: string) => {
    let index = order.indexOf(name);
    if (index === -1) index = order.push(name) - 1;
    return `$${index + 1}`;
  });
  const declared = [...names].sort();
  const used = [...order].sort();
  if (declared.join() !== used.join()) {
    throw new Error(
      `statement parameters ${used.join(', ')} differ from the names given: ${declared.join(', ')}`,
    );
  }
  return {
    text: positional,
    names: order as Name[],
    values: (params) => order.map((name) => params[name as Name]),
  };
}
