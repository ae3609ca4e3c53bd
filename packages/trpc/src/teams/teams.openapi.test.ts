import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../openapi';
import { appRouter } from '../router';

type Json = Record<string, unknown>;
type Operation = {
  parameters?: Array<{ name: string; in: string; description?: string }>;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { headers?: Json; content?: Record<string, { schema: Json }> }>;
  security?: Array<Record<string, string[]>>;
};

const document = JSON.parse(
  JSON.stringify(openApiDocument(appRouter, { baseUrl: 'http://localhost:3000/v2' })),
) as Json & {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
};
const operation = (method: string, path: string) => {
  const found = document.paths[path]?.[method.toLowerCase()];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found;
};

const TEAMS = '/organizations/{organization}/teams';
const TEAM = `${TEAMS}/{team}`;
const MEMBERS = `${TEAM}/members`;
const MEMBER = `${MEMBERS}/{user}`;
/** method, path, success status, the success body (a list, one item, or none), its component and the scope */
const OPERATIONS = [
  ['GET', TEAMS, '200', 'list', 'Team', 'view_teams'],
  ['GET', TEAM, '200', 'one', 'Team', 'view_teams'],
  ['POST', TEAMS, '201', 'one', 'Team', 'write_teams'],
  ['PATCH', TEAM, '200', 'one', 'Team', 'write_teams'],
  ['DELETE', TEAM, '204', 'none', 'Team', 'write_teams'],
  ['GET', MEMBERS, '200', 'list', 'TeamMember', 'view_teams'],
  ['GET', MEMBER, '200', 'one', 'TeamMember', 'view_teams'],
  ['POST', MEMBERS, '201', 'one', 'TeamMember', 'write_teams'],
  ['PATCH', MEMBER, '200', 'one', 'TeamMember', 'write_teams'],
  ['DELETE', MEMBER, '204', 'none', 'TeamMember', 'write_teams'],
] as const;

describe('the OpenAPI document of teams and team members', () => {
  it('documents exactly the teams and team members operations', () => {
    const documented = Object.entries(document.paths)
      .filter(([path]) => path.startsWith(TEAMS) && !path.includes('/pipelines'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(OPERATIONS.map(([method, path]) => `${method} ${path}`).sort());
  });

  it.each(OPERATIONS)('answers %s %s with %s and %s %s', (method, path, status, shape, component, scope) => {
    const { responses, security } = operation(method, path);
    expect(Object.keys(responses).filter((code) => code.startsWith('2'))).toEqual([status]);
    const ref = { $ref: `#/components/schemas/${component}` };
    const expected = { list: { type: 'array', items: ref }, one: ref, none: undefined }[shape];
    expect(responses[status]?.content?.['application/json']?.schema).toEqual(expected);
    expect(security).toEqual([{ AccessToken: [scope] }]);
    if (shape === 'list')
      expect(responses[status]?.headers?.Link).toEqual({ $ref: '#/components/headers/Link' });
  });

  it('documents the bodies, only a name being required on create', () => {
    const body = (method: string, path: string) =>
      operation(method, path).requestBody?.content['application/json']?.schema;
    expect(body('POST', TEAMS)).toEqual({ $ref: '#/components/schemas/CreateTeamRequest' });
    expect(body('PATCH', TEAM)).toEqual({ $ref: '#/components/schemas/UpdateTeamRequest' });
    expect(body('POST', MEMBERS)).toEqual({ $ref: '#/components/schemas/CreateTeamMemberRequest' });
    expect(body('PATCH', MEMBER)).toEqual({ $ref: '#/components/schemas/UpdateTeamMemberRequest' });
    const { schemas } = document.components;
    expect(schemas.CreateTeamRequest).toMatchObject({ required: ['name'] });
    expect(schemas.UpdateTeamRequest).not.toHaveProperty('required');
    expect(schemas.CreateTeamMemberRequest).toMatchObject({ required: ['user_id'] });
    expect(schemas.UpdateTeamMemberRequest).toMatchObject({ required: ['role'] });
  });

  it('documents the user_id filter and the pagination of the teams list', () => {
    const query = (operation('GET', TEAMS).parameters ?? []).filter((parameter) => parameter.in === 'query');
    expect(query.map((parameter) => parameter.name)).toEqual(['user_id', 'page', 'per_page']);
    for (const parameter of query) expect(parameter.description, parameter.name).toBeTruthy();
  });

  it('gives Team and TeamMember the keys of the public examples, in their order', () => {
    const { schemas } = document.components;
    expect(Object.keys((schemas.Team as { properties: Json }).properties)).toEqual([
      'id',
      'graphql_id',
      'name',
      'slug',
      'description',
      'created_at',
      'privacy',
      'default',
      'created_by',
    ]);
    expect(Object.keys((schemas.TeamMember as { properties: Json }).properties)).toEqual([
      'role',
      'created_at',
      'user_id',
      'user_name',
    ]);
  });
});
