/** pg's result class (pg/lib/result.js, exported by pg's `./lib/*`), as pg-array-results.ts patches it. */
declare module 'pg/lib/result.js' {
  const Result: { prototype: { addFields(fieldDescriptions: unknown[]): void } };
  export default Result;
}

/** pg's value conversion for statement parameters (pg/lib/utils.js), as pg-described-statements.ts binds them. */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
