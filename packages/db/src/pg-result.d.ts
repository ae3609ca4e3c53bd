/** pg's result class (pg/lib/result.js, exported by pg's `./lib/*`), as pg-array-results.ts patches it. */
declare module 'pg/lib/result.js' {
  const Result: { prototype: { addFields(fieldDescriptions: unknown[]): void } };
  export default Result;
}
