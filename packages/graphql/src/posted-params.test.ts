import { describe, expect, it } from 'vitest';
import { postedParams } from './posted-params';

const BODY = JSON.stringify({
  query: '{ viewer { user { name } } }',
  variables: { a: 1 },
  operationName: null,
});

describe('the parameters of a POSTed GraphQL request', () => {
  it('are its JSON body parsed, for the content types yoga reads as JSON', () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/graphql+json',
      'application/graphql+json;charset=utf-8',
      'application/json, text/plain',
    ]) {
      expect(postedParams(type, BODY), type).toEqual(JSON.parse(BODY));
    }
  });

  it('are none for another content type: yoga reads (or refuses) the text itself', () => {
    for (const type of [
      undefined,
      '',
      'text/plain',
      'application/graphql',
      'application/jsonx',
      'text/plain, application/json',
    ]) {
      expect(postedParams(type, BODY), String(type)).toBeUndefined();
    }
  });

  it('are none for a body that is no object with members: yoga answers it as before', () => {
    for (const body of [undefined, '', '{', 'null', '42', '"query"', '[]', '[{"query":"{ a }"}]', '{}']) {
      expect(postedParams('application/json', body), String(body)).toBeUndefined();
    }
  });
});
