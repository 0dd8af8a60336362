import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { AddressGuard } from '../../../src/core/web/http/addressGuard';
import { isToolError } from '../../../src/core/errors';
import { startLoopbackServer } from '../../helpers/loopbackServer';

describe('web/addressGuard', () => {
  describe('blockReason', () => {
    const blocked: [string, RegExp][] = [
      ['127.0.0.1', /loopback/],
      ['127.255.0.9', /loopback/],
      ['::1', /loopback/],
      ['10.1.2.3', /private/],
      ['172.16.0.1', /private/],
      ['192.168.1.1', /private/],
      ['169.254.1.1', /link-local/],
      ['fe80::1', /link-local/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['fd12:3456::1', /unique-local/],
      ['fc00::1', /unique-local/],
      ['224.0.0.1', /multicast/],
      ['ff02::1', /multicast/],
      ['0.0.0.0', /unspecified/],
      ['::', /unspecified/],
      ['255.255.255.255', /broadcast/],
      ['240.0.0.1', /reserved/],
      ['192.0.2.1', /reserved/],
      ['169.254.169.254', /cloud metadata/],
      ['100.100.100.200', /cloud metadata/],
      ['fd00:ec2::254', /cloud metadata/],
      ['::ffff:127.0.0.1', /loopback/],
      ['::ffff:7f00:1', /loopback/],
      ['::ffff:169.254.169.254', /cloud metadata/],
      ['::7f00:1', /outside the global unicast range/],
      ['64:ff9b::7f00:1', /special-purpose/],
      ['2002:7f00:1::', /special-purpose/],
    ];
    for (const [address, reason] of blocked) {
      it(`refuses ${address}`, () => assert.match(AddressGuard.blockReason(address) ?? 'allowed', reason));
    }
    for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      it(`allows public ${address}`, () => assert.equal(AddressGuard.blockReason(address), undefined));
    }
  });

  describe('allowedPrivateHosts', () => {
    it('opens a single address, a CIDR and a host name, and nothing else', () => {
      const guard = new AddressGuard(['127.0.0.1', '10.0.0.0/8', 'Intranet.Example.', '[::1]']);
      assert.doesNotThrow(() => guard.check('127.0.0.1', '127.0.0.1'));
      assert.doesNotThrow(() => guard.check('::ffff:127.0.0.1', '::ffff:127.0.0.1'));
      assert.doesNotThrow(() => guard.check('wiki', '10.20.30.40'));
      assert.doesNotThrow(() => guard.check('intranet.example', '192.168.0.5'));
      assert.doesNotThrow(() => guard.check('::1', '::1'));
      assert.throws(() => guard.check('127.0.0.2', '127.0.0.2'), { code: 'WEB_BLOCKED_ADDRESS' });
      assert.throws(() => guard.check('other.example', '192.168.0.5'), { code: 'WEB_BLOCKED_ADDRESS' });
      assert.throws(() => guard.check('169.254.169.254', '169.254.169.254'), { code: 'WEB_BLOCKED_ADDRESS' });
    });

    it('names the setting in the refusal message', () => {
      assert.throws(() => new AddressGuard().check('localhost', '127.0.0.1'), (e: unknown) => {
        assert.ok(isToolError(e));
        assert.match(e.message, /localhost \(127\.0\.0\.1\) is a loopback address/);
        assert.match(e.message, /scout\.webFetch\.allowedPrivateHosts/);
        return true;
      });
    });
  });

  describe('checkHost', () => {
    it('checks a literal address without DNS and resolves a name to check every address', async () => {
      await assert.rejects(new AddressGuard().checkHost('127.0.0.1'), { code: 'WEB_BLOCKED_ADDRESS' });
      await assert.rejects(new AddressGuard().checkHost('localhost'), { code: 'WEB_BLOCKED_ADDRESS' });
      await new AddressGuard(['localhost']).checkHost('localhost');
      await new AddressGuard(['127.0.0.1', '::1']).checkHost('localhost');
    });
  });

  describe('checkBeforeResolving (one decision for direct URLs, reported redirects and confirmations)', () => {
    it('judges an IPv4-mapped IPv6 literal as its IPv4 address', () => {
      const guard = new AddressGuard(['127.0.0.1']);
      assert.equal(guard.checkBeforeResolving('::ffff:7f00:1'), true);
      assert.throws(() => guard.checkBeforeResolving('::ffff:7f00:2'), { code: 'WEB_BLOCKED_ADDRESS', message: /loopback address/ });
      assert.throws(() => new AddressGuard().checkBeforeResolving('::ffff:7f00:1'), { code: 'WEB_BLOCKED_ADDRESS' });
    });

    it('refuses localhost and *.localhost names as loopback without DNS (RFC 6761 §6.3) unless the allow-list opens them', () => {
      for (const name of ['localhost', 'app.localhost', 'a.b.localhost']) {
        assert.throws(() => new AddressGuard().checkBeforeResolving(name), { code: 'WEB_BLOCKED_ADDRESS', message: new RegExp(`^${name.replace(/\./g, '\\.')} is a loopback name`) }, name);
        // Only one of the two loopback addresses a localhost name may stand for is not enough.
        assert.throws(() => new AddressGuard(['127.0.0.1']).checkBeforeResolving(name), { code: 'WEB_BLOCKED_ADDRESS' }, name);
        assert.equal(new AddressGuard(['127.0.0.1', '::1']).checkBeforeResolving(name), false, name);
        assert.equal(new AddressGuard([name]).checkBeforeResolving(name), true, name);
      }
      // Names that merely contain the word are ordinary names, judged after DNS.
      assert.equal(new AddressGuard().checkBeforeResolving('localhost.example.com'), false);
      assert.equal(new AddressGuard().checkBeforeResolving('mylocalhost'), false);
    });
  });

  describe('lookup (connect-time check)', () => {
    it('fails a real connection whose name resolves to a refused address, before any byte is sent', async () => {
      const server = await startLoopbackServer((_req, res) => res.end('reached'));
      try {
        const error = await new Promise<unknown>((resolve) => {
          const req = http.get({ host: 'localhost', port: server.port, family: 4, lookup: new AddressGuard().lookup }, () => resolve('connected'));
          req.on('error', resolve);
        });
        assert.ok(isToolError(error), `expected a ToolError, got ${String(error)}`);
        assert.equal(error.code, 'WEB_BLOCKED_ADDRESS');
        assert.equal(server.connections, 0);
      } finally {
        await server.close();
      }
    });

    it('refuses a localhost name at connect time unless the allow-list opens it', async () => {
      const server = await startLoopbackServer((_req, res) => res.end('reached'));
      try {
        const error = await new Promise<unknown>((resolve) => {
          const req = http.get({ host: 'localhost', port: server.port, family: 4, lookup: new AddressGuard(['127.0.0.1']).lookup }, () => resolve('connected'));
          req.on('error', resolve);
        });
        assert.ok(isToolError(error), `expected a ToolError, got ${String(error)}`);
        assert.match(error.message, /^localhost is a loopback name/);
        assert.equal(server.connections, 0);
      } finally {
        await server.close();
      }
    });

    it('lets an allowed name connect', async () => {
      const server = await startLoopbackServer((_req, res) => res.end('reached'));
      try {
        const body = await new Promise<string>((resolve, reject) => {
          http
            .get({ host: 'localhost', port: server.port, family: 4, lookup: new AddressGuard(['localhost']).lookup }, (res) => {
              let text = '';
              res.on('data', (c) => (text += c));
              res.on('end', () => resolve(text));
            })
            .on('error', reject);
        });
        assert.equal(body, 'reached');
      } finally {
        await server.close();
      }
    });
  });
});
