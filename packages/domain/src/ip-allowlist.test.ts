import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressAllowed, parseAddress, parseIpAllowlist } from './ip-allowlist';

describe('parseIpAllowlist', () => {
  it('keeps addresses and ranges, one space between them', () => {
    expect(parseIpAllowlist('  127.0.0.0/8\n10.0.0.1   2001:db8::/32 ::1 ')).toEqual({
      ok: true,
      value: '127.0.0.0/8 10.0.0.1 2001:db8::/32 ::1',
    });
  });

  it('reads an empty or blank list as no restriction', () => {
    expect(parseIpAllowlist('')).toEqual({ ok: true, value: '' });
    expect(parseIpAllowlist('   ')).toEqual({ ok: true, value: '' });
  });

  it.each([
    '256.0.0.1',
    '10.0.0.0/33',
    '10.0.0/8',
    '::1/129',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    'localhost',
    '10.0.0.0/8/8',
    '10.0.0.0/',
  ])('refuses %s, naming it', (entry) => {
    const parsed = parseIpAllowlist(`127.0.0.1 ${entry}`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.kind).toBe('unprocessable');
      expect(parsed.error.message).toBe(
        `Validation failed: Allowed api ip addresses "${entry}" is not an IP address or CIDR range`,
      );
    }
  });
});

describe('addressAllowed', () => {
  it('allows everyone when the list is empty', () => {
    expect(addressAllowed('', '203.0.113.9')).toBe(true);
  });

  it('allows a caller without a network address (the CLI on the database)', () => {
    expect(addressAllowed('10.0.0.0/8', null)).toBe(true);
  });

  it.each([
    ['127.0.0.0/8', '127.0.0.1', true],
    ['127.0.0.0/8', '::ffff:127.0.0.1', true],
    ['127.0.0.0/8', '128.0.0.1', false],
    ['10.0.0.0/8', '127.0.0.1', false],
    ['10.1.2.3', '10.1.2.3', true],
    ['10.1.2.3', '10.1.2.4', false],
    ['127.0.0.1/8', '127.200.0.1', true],
    ['0.0.0.0/0', '198.51.100.7', true],
    ['::1', '::1', true],
    ['::1', '127.0.0.1', false],
    ['2001:db8::/32', '2001:db8:ffff::1', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['10.0.0.0/8 ::1', '::1', true],
    ['fe80::/10', 'fe80::1%lo0', true],
  ])('with %s, %s is allowed: %s', (allowlist, address, allowed) => {
    expect(addressAllowed(allowlist, address)).toBe(allowed);
  });

  it('refuses an address it cannot read when the list restricts', () => {
    expect(addressAllowed('127.0.0.0/8', 'nonsense')).toBe(false);
  });

  it('places every IPv4 address in its /24 and no other', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(octet, octet, octet, octet, octet, (a, b, c, d, other) => {
        const address = `${a}.${b}.${c}.${d}`;
        expect(addressAllowed(`${a}.${b}.${c}.0/24`, address)).toBe(true);
        expect(addressAllowed(`${a}.${b}.${other}.0/24`, address)).toBe(other === c);
      }),
    );
  });

  it('reads an IPv6 address written with or without compression the same', () => {
    expect(parseAddress('2001:db8:0:0:0:0:0:1')).toEqual(parseAddress('2001:db8::1'));
  });
});
