import { describe, expect, it } from 'vitest';
import { endpointUrlProblem, forbiddenAddress } from './url.rules.ts';

const LOCAL = { allowLoopback: true };

describe('webhook URL SSRF guard', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '::1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '169.254.1.1',
    '100.64.0.1', '100.127.255.254', 'fe80::1', 'fc00::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254',
    '0.0.0.0', '::', '224.0.0.1', '255.255.255.255', 'ff02::1', '64:ff9b::a00:1', '2002:a00:1::',
  ])('refuses %s', (ip) => {
    expect(forbiddenAddress(ip)).not.toBeNull();
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows the public address %s', (ip) => {
    expect(forbiddenAddress(ip)).toBeNull();
  });

  it('loopback only under the local policy, never private or metadata', () => {
    expect(forbiddenAddress('127.0.0.1', LOCAL)).toBeNull();
    expect(forbiddenAddress('::1', LOCAL)).toBeNull();
    expect(forbiddenAddress('10.1.2.3', LOCAL)).toBe('private');
    expect(forbiddenAddress('169.254.169.254', LOCAL)).toBe('linkLocal');
    expect(forbiddenAddress('not-an-ip')).toBe('invalid');
  });

  it('URLs: https with a public host only', () => {
    expect(endpointUrlProblem('https://hooks.example.com/chorus')).toBeNull();
    expect(endpointUrlProblem('https://93.184.216.34/x')).toBeNull();
    expect(endpointUrlProblem('http://hooks.example.com/chorus')).toMatch(/https/);
    expect(endpointUrlProblem('ftp://hooks.example.com')).toMatch(/https/);
    expect(endpointUrlProblem('not a url')).toMatch(/valid URL/);
    expect(endpointUrlProblem('https://user:pw@hooks.example.com')).toMatch(/user name/);
    expect(endpointUrlProblem('https://localhost/x')).toMatch(/internal/);
    expect(endpointUrlProblem('https://metadata.google.internal/x')).toMatch(/internal/);
    expect(endpointUrlProblem('https://printer.local/x')).toMatch(/internal/);
    expect(endpointUrlProblem('https://intranet/x')).toMatch(/fully qualified/);
    expect(endpointUrlProblem('https://127.0.0.1/x')).toMatch(/loopback/);
    expect(endpointUrlProblem('https://[::1]/x')).toMatch(/loopback/);
    expect(endpointUrlProblem('https://[::ffff:10.0.0.1]/x')).toMatch(/private/);
    expect(endpointUrlProblem('https://169.254.169.254/latest/meta-data')).toMatch(/linkLocal/);
    expect(endpointUrlProblem('https://[fd00:ec2::254]/')).toMatch(/uniqueLocal/);
    expect(endpointUrlProblem('https://100.64.1.1/')).toMatch(/carrierGradeNat/);
  });

  it('the local policy allows http to a loopback receiver only', () => {
    expect(endpointUrlProblem('http://127.0.0.1:4567/hook', LOCAL)).toBeNull();
    expect(endpointUrlProblem('http://localhost:4567/hook', LOCAL)).toBeNull();
    expect(endpointUrlProblem('http://[::1]:4567/hook', LOCAL)).toBeNull();
    expect(endpointUrlProblem('http://hooks.example.com/hook', LOCAL)).toMatch(/local test receiver/);
    expect(endpointUrlProblem('http://10.0.0.5/hook', LOCAL)).toMatch(/private/);
    expect(endpointUrlProblem('http://169.254.169.254/', LOCAL)).toMatch(/linkLocal/);
  });

  it('off AWS, a refused loopback URL names the switch that allows it (issue 49 item 8)', () => {
    const here = { allowLoopback: false, loopbackSwitch: 'CHORUS_WEBHOOKS_ALLOW_LOOPBACK=1' };
    for (const url of ['http://127.0.0.1:4567/hook', 'http://localhost:4567/hook', 'http://[::1]:4567/hook']) {
      expect(endpointUrlProblem(url, here)).toMatch(/^must start with https:\/\/; .*start Chorus with CHORUS_WEBHOOKS_ALLOW_LOOPBACK=1$/);
    }
    expect(endpointUrlProblem('https://127.0.0.1/hook', here)).toMatch(/loopback.*CHORUS_WEBHOOKS_ALLOW_LOOPBACK=1/);
    // not a loopback receiver: the switch would not help, so it is not named
    expect(endpointUrlProblem('http://hooks.example.com/hook', here)).toBe('must start with https://');
    expect(endpointUrlProblem('http://10.0.0.5/hook', here)).not.toMatch(/CHORUS_WEBHOOKS_ALLOW_LOOPBACK/);
    // in AWS (no switch): the plain refusal
    expect(endpointUrlProblem('http://127.0.0.1:4567/hook')).toBe('must start with https://');
  });
});
