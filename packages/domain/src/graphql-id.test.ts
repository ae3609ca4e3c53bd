import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeGraphqlId, encodeGraphqlId, GRAPHQL_TYPES } from './graphql-id';

describe('encodeGraphqlId', () => {
  it('matches the public API example for a registry', () => {
    expect(encodeGraphqlId('Registry', '0191df84-85e4-77aa-83ba-6579084728eb')).toBe(
      'UmVnaXN0cnktLS0wMTkxZGY4NC04NWU0LTc3YWEtODNiYS02NTc5MDg0NzI4ZWI=',
    );
  });

  it('is standard base64 of "<Type>---<uuid>" with padding', () => {
    const id = encodeGraphqlId('Job', '0191df84-85e4-77aa-83ba-6579084728eb');
    expect(id).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(id.length % 4).toBe(0);
    expect(atob(id)).toBe('Job---0191df84-85e4-77aa-83ba-6579084728eb');
  });
});

describe('decodeGraphqlId', () => {
  it('gives back the type and id that were encoded', () => {
    fc.assert(
      fc.property(fc.constantFrom(...GRAPHQL_TYPES), fc.uuid(), (type, id) => {
        expect(decodeGraphqlId(encodeGraphqlId(type, id))).toEqual({ type, id });
      }),
    );
  });

  it('reads the public API example', () => {
    expect(decodeGraphqlId('UmVnaXN0cnktLS0wMTkxZGY4NC04NWU0LTc3YWEtODNiYS02NTc5MDg0NzI4ZWI=')).toEqual({
      type: 'Registry',
      id: '0191df84-85e4-77aa-83ba-6579084728eb',
    });
  });

  it('returns the id in lowercase', () => {
    expect(decodeGraphqlId(btoa('Build---0191DF84-85E4-77AA-83BA-6579084728EB'))).toEqual({
      type: 'Build',
      id: '0191df84-85e4-77aa-83ba-6579084728eb',
    });
  });

  const uuid = '0191df84-85e4-77aa-83ba-6579084728eb';
  it.each([
    ['an empty string', ''],
    ['characters outside base64', '!!!!'],
    ['missing padding', btoa(`Build---${uuid}`).replace(/=+$/, '')],
    ['embedded whitespace', ` ${btoa(`Build---${uuid}`)}`],
    ['an unknown type', btoa(`Widget---${uuid}`)],
    ['a type in the wrong case', btoa(`build---${uuid}`)],
    ['an id that is not a uuid', btoa('Build---42')],
    ['no separator', btoa(`Build${uuid}`)],
    ['a short separator', btoa(`Build--${uuid}`)],
    ['an extra separator', btoa(`Build---${uuid}---x`)],
    ['a separator inside the id', btoa(`Build----${uuid}`)],
    ['a bare uuid', uuid],
  ])('rejects %s', (_name, s) => {
    expect(decodeGraphqlId(s)).toBeNull();
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        decodeGraphqlId(s);
      }),
    );
  });
});
