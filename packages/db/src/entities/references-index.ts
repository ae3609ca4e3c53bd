/**
 * The index of a nullable foreign key's column, partial (only rows that refer): PostgreSQL indexes the
 * referenced side only, and without it each delete of a referenced row scans the referring table.
 */
export function referencesIndex(table: string, column: string) {
  const name = `${table}_${column}_idx`;
  return {
    name,
    expression: `create index "${name}" on "${table}" ("${column}") where "${column}" is not null`,
  };
}
