/**
 * Checks an OpenAPI document with two independent validators, offline:
 *
 * - Redocly's linter (`@redocly/openapi-core`, the library behind `redocly lint`) with its built-in
 *   `recommended` rules, configured here so that no configuration file or remote ruleset is read;
 * - Swagger Parser (`@apidevtools/swagger-parser`, the library behind `swagger-cli validate`), with its
 *   HTTP resolver off: the document refers to nothing outside itself.
 *
 * Errors fail `pnpm check:api` and `pnpm docs:api`; warnings are reported.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';

export interface OpenApiProblems {
  errors: string[];
  warnings: string[];
}

/** Where a Redocly problem is, as a JSON pointer into the document. */
const pointerOf = (problem: NormalizedProblem) => {
  const location = problem.location[0];
  return location && 'pointer' in location && location.pointer ? location.pointer : '#/';
};

export async function openApiProblems(document: object): Promise<OpenApiProblems> {
  const errors: string[] = [];
  const warnings: string[] = [];

  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: 'openapi.json',
    config,
  });
  for (const problem of problems) {
    if (problem.ignored) continue;
    const line = `redocly ${problem.ruleId}: ${problem.message} (${pointerOf(problem)})`;
    (problem.severity === 'error' ? errors : warnings).push(line);
  }

  try {
    // `validate` dereferences the document it is given: it gets a copy.
    await SwaggerParser.validate(structuredClone(document) as never, { resolve: { http: false } });
  } catch (error) {
    errors.push(`swagger-parser: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { errors, warnings };
}
