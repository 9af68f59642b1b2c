import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import forge from 'node-forge';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InstallPlanView } from '../../../src-shared/contract/install';
import { bundleEn } from '../../../src-shared/i18n/bundle.en';
import { bundleZhCN } from '../../../src-shared/i18n/bundle.zh-CN';
import { ConfigStore } from '../config/store';
import { MemorySecretStore } from '../secrets/store';
import { bundleManifest, mcpb, packBundle } from '../../test-support/bundle-fixture';
import { runPiped } from '../../test-support/cli-process';
import { tempDir } from '../../test-support/processes';
import type { BundleEnvironment } from './bundle';
import { Installer } from './installer';

/*
 * MCPB signatures: bundles packed and signed with the official mcpb CLI (`mcpb sign`, with its own self-signed
 * certificate or with certificates made here: a root CA passed as the one trusted root, an intermediate, a publisher
 * certificate for code signing, an expired one and one only for TLS servers), then changed byte by byte.
 */

interface Issued {
  cert: string;
  key: string;
  certFile: string;
  keyFile: string;
}

const day = 24 * 60 * 60 * 1000;
let serial = 1;

/** A certificate (signed by `issuer`, or by itself), written as PEM files for `mcpb sign`. */
function issue(
  subject: { CN: string; O?: string },
  options: { issuer?: Issued; ca?: boolean; from?: Date; to?: Date; usage?: 'codeSigning' | 'serverAuth' } = {},
): Issued {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = (serial++).toString(16).padStart(4, '0');
  cert.validity.notBefore = options.from ?? new Date(Date.now() - day);
  cert.validity.notAfter = options.to ?? new Date(Date.now() + 365 * day);
  const attrs = [{ shortName: 'CN', value: subject.CN }, ...(subject.O ? [{ shortName: 'O', value: subject.O }] : [])];
  cert.setSubject(attrs);
  const issuerCert = options.issuer ? forge.pki.certificateFromPem(options.issuer.cert) : undefined;
  cert.setIssuer(issuerCert ? issuerCert.subject.attributes : attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: options.ca === true, critical: true },
    options.ca ? { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true } : { name: 'keyUsage', digitalSignature: true, critical: true },
    ...(options.ca ? [] : [{ name: 'extKeyUsage', [options.usage ?? 'codeSigning']: true }]),
  ]);
  cert.sign(forge.pki.privateKeyFromPem(options.issuer?.key ?? privateKey), forge.md.sha256.create());
  const dir = tempDir();
  const pem = forge.pki.certificateToPem(cert);
  const issued = { cert: pem, key: privateKey, certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') };
  writeFileSync(issued.certFile, pem);
  writeFileSync(issued.keyFile, privateKey);
  return issued;
}

/** A bundle packed and then signed by the official CLI with `signer` (and intermediates), or its own self-signed certificate. */
function signedBundle(name: string, signer?: Issued, intermediates: Issued[] = []): string {
  const file = packBundle({ name });
  if (signer)
    mcpb([
      'sign',
      file,
      '--cert',
      signer.certFile,
      '--key',
      signer.keyFile,
      ...(intermediates.length ? ['--intermediate', ...intermediates.map((i) => i.certFile)] : []),
    ]);
  else {
    const dir = tempDir();
    mcpb(['sign', file, '--self-signed', '--cert', join(dir, 'cert.pem'), '--key', join(dir, 'key.pem')]);
  }
  return file;
}

function installer(): { installer: Installer; store: ConfigStore; dataDir: string } {
  const dataDir = tempDir();
  const configPath = join(tempDir(), 'mcp.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: {} }, null, 2));
  const store = new ConfigStore(configPath);
  return { installer: new Installer({ store, secrets: new MemorySecretStore(), dataDir }), store, dataDir };
}

const plan = (bytes: Uint8Array, env: BundleEnvironment = {}, fileLabel = 'greeter.mcpb'): Promise<InstallPlanView> =>
  installer().installer.planBundle(bytes, { fileLabel, env });
const signatureBlockStart = (bytes: Buffer): number => bytes.lastIndexOf(Buffer.from('MCPB_SIG_V1'));
/** The bytes with one bit of the one at `at` flipped. */
function flipped(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt8(copy.readUInt8(at) ^ 0x01, at);
  return copy;
}

let root: Issued;
let intermediate: Issued;
let publisher: Issued;
beforeAll(() => {
  root = issue({ CN: 'Switchboard Test Root CA', O: 'Switchboard Tests' }, { ca: true, to: new Date(Date.now() + 3650 * day) });
  intermediate = issue({ CN: 'Switchboard Test Code Signing CA', O: 'Switchboard Tests' }, { ca: true, issuer: root });
  publisher = issue({ CN: 'Greeter Publisher', O: 'Example Tools Ltd' }, { issuer: intermediate });
});

describe('MCPB signatures', () => {
  it('unsigned: installable, "Not signed"', async () => {
    const shown = await plan(readFileSync(packBundle({ name: 'plain-greeter' })));
    expect(shown.signature).toEqual({ status: 'unsigned' });
    expect(shown.notices[0]).toEqual({ code: 'unsigned', data: {}, text: 'Not signed: who made it is not verified.', tone: 'warning' });
  });

  it('self-signed by the official CLI: installs, the plan says plainly the publisher is not verified (never "verified")', async () => {
    const bytes = readFileSync(signedBundle('self-greeter'));
    const { installer: inst, store, dataDir } = installer();
    const shown = await inst.planBundle(bytes, { fileLabel: 'self-greeter.mcpb' });
    expect(shown.signature).toMatchObject({
      status: 'self-signed',
      signer: 'MCPB Self-Signed Certificate (MCPB Extensions)',
      commonName: 'MCPB Self-Signed Certificate',
      organization: 'MCPB Extensions',
    });
    expect(shown.signature?.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(shown.notices[0]).toMatchObject({ code: 'selfSigned', data: { signer: 'MCPB Self-Signed Certificate (MCPB Extensions)' }, tone: 'warning' });
    expect(shown.notes[0]).toBe('Self-signed by MCPB Self-Signed Certificate (MCPB Extensions): the publisher is not verified.');
    expect(shown.notes.join(' ')).not.toMatch(/, verified/);
    // The block is stripped before unzipping: the files are the bundle's own.
    const result = await inst.installBundle(bytes, { api_key: 'k' }, { fileLabel: 'self-greeter.mcpb' });
    expect(existsSync(join(dataDir, 'bundles', 'self-greeter', 'server', 'index.mjs'))).toBe(true);
    expect(result.name).toBe('self-greeter');
    await store.dispose();
  });

  it('a certificate chained (through an intermediate in the signature) to a trusted root: "Signed by …, verified"; the same with the default roots: not verified', async () => {
    const bytes = readFileSync(signedBundle('ca-greeter', publisher, [intermediate]));
    const trusted = await plan(bytes, { trustedRoots: [root.cert] });
    expect(trusted.signature).toMatchObject({
      status: 'verified',
      signer: 'Greeter Publisher (Example Tools Ltd)',
      issuer: 'Switchboard Test Code Signing CA (Switchboard Tests)',
    });
    expect(trusted.notices[0]).toMatchObject({ code: 'verified', tone: 'ok' });
    expect(trusted.notes[0]).toBe(
      'Signed by Greeter Publisher (Example Tools Ltd), verified (certificate issued by Switchboard Test Code Signing CA (Switchboard Tests)).',
    );
    // Node's own roots do not know this CA; nor does a root list without it.
    const untrusted = await plan(bytes);
    expect(untrusted.signature?.status).toBe('untrusted');
    expect(untrusted.notes[0]).toBe(
      'Signed by Greeter Publisher (Example Tools Ltd), but its certificate (issued by Switchboard Test Code Signing CA (Switchboard Tests)) chains to no trusted root: the publisher is not verified.',
    );
    // A root may be the intermediate, or the publisher's own certificate.
    expect((await plan(bytes, { trustedRoots: [intermediate.cert] })).signature?.status).toBe('verified');
    expect((await plan(bytes, { trustedRoots: [publisher.cert] })).signature?.status).toBe('verified');
    const otherRoot = issue({ CN: 'Another Root' }, { ca: true });
    expect((await plan(bytes, { trustedRoots: [otherRoot.cert] })).signature?.status).toBe('untrusted');
    // Without the intermediate in the signature, the chain stops short of the root.
    expect((await plan(readFileSync(signedBundle('ca-greeter-short', publisher)), { trustedRoots: [root.cert] })).signature?.status).toBe('untrusted');
  });

  it('an expired certificate (or one not valid yet, or only for TLS servers): installable but not verified, saying why', async () => {
    const expired = issue({ CN: 'Old Publisher' }, { issuer: root, from: new Date(Date.now() - 400 * day), to: new Date(Date.now() - 30 * day) });
    const old = await plan(readFileSync(signedBundle('old-greeter', expired)), { trustedRoots: [root.cert] });
    expect(old.signature?.status).toBe('expired');
    const ended = forge.pki.certificateFromPem(expired.cert).validity.notAfter.toISOString().slice(0, 10);
    expect(old.notes[0]).toBe(`Signed by Old Publisher with a certificate that expired on ${ended}: the publisher is not verified.`);
    // A valid certificate seen from after its end, or before its start.
    const bytes = readFileSync(signedBundle('clock-greeter', publisher, [intermediate]));
    expect((await plan(bytes, { trustedRoots: [root.cert], now: new Date(Date.now() + 400 * day) })).signature?.status).toBe('expired');
    expect((await plan(bytes, { trustedRoots: [root.cert], now: new Date(Date.now() - 2 * day) })).notices[0]?.code).toBe('notYetValid');
    const tls = issue({ CN: 'Web Server' }, { issuer: root, usage: 'serverAuth' });
    const web = await plan(readFileSync(signedBundle('web-greeter', tls)), { trustedRoots: [root.cert] });
    expect([web.signature?.status, web.notes[0]]).toEqual([
      'not-for-code',
      'Signed by Web Server with a certificate that is not for code signing: the publisher is not verified.',
    ]);
  });

  it('signatures made apart from mcpb, by openssl cms (RSA with an intermediate, and ECDSA P-256), in the same block: verified', async () => {
    const openssl = (args: string[]): void => {
      const run = spawnSync('openssl', args, { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${run.stderr}`);
    };
    const dir = tempDir();
    const unsigned = packBundle({ name: 'cms-greeter' });
    /** The bundle with an MCPB block around `openssl cms -sign`'s detached DER. */
    const cmsSigned = (signerArgs: string[]): Buffer => {
      const der = join(dir, `sig-${serial++}.der`);
      openssl(['cms', '-sign', '-binary', '-md', 'sha256', '-outform', 'DER', '-in', unsigned, '-out', der, ...signerArgs]);
      const signature = readFileSync(der);
      const length = Buffer.alloc(4);
      length.writeUInt32LE(signature.length);
      return Buffer.concat([readFileSync(unsigned), Buffer.from('MCPB_SIG_V1'), length, signature, Buffer.from('MCPB_SIG_END')]);
    };
    const rsa = await plan(cmsSigned(['-signer', publisher.certFile, '-inkey', publisher.keyFile, '-certfile', intermediate.certFile]), {
      trustedRoots: [root.cert],
    });
    expect(rsa.signature).toMatchObject({ status: 'verified', signer: 'Greeter Publisher (Example Tools Ltd)' });
    // An ECDSA publisher certificate, issued by the test root.
    writeFileSync(join(dir, 'ext.cnf'), 'extendedKeyUsage=codeSigning\nbasicConstraints=CA:FALSE\n');
    writeFileSync(join(dir, 'root.key'), root.key);
    openssl([
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      join(dir, 'ec.key'),
      '-out',
      join(dir, 'ec.csr'),
      '-subj',
      '/CN=Curve Publisher/O=Curves Inc',
    ]);
    openssl([
      'x509',
      '-req',
      '-in',
      join(dir, 'ec.csr'),
      '-CA',
      root.certFile,
      '-CAkey',
      join(dir, 'root.key'),
      '-set_serial',
      '77',
      '-days',
      '30',
      '-sha256',
      '-extfile',
      join(dir, 'ext.cnf'),
      '-out',
      join(dir, 'ec.pem'),
    ]);
    const ec = await plan(cmsSigned(['-signer', join(dir, 'ec.pem'), '-inkey', join(dir, 'ec.key')]), { trustedRoots: [root.cert] });
    expect(ec.signature).toMatchObject({ status: 'verified', signer: 'Curve Publisher (Curves Inc)', issuer: 'Switchboard Test Root CA (Switchboard Tests)' });
    const changed = cmsSigned(['-signer', join(dir, 'ec.pem'), '-inkey', join(dir, 'ec.key')]);
    await expect(plan(flipped(changed, 300), { trustedRoots: [root.cert] })).rejects.toThrow(/does not match its contents/);
  });

  it('a byte changed after signing (in the zip, or in the signature itself) is refused, saying so', async () => {
    const signed = readFileSync(signedBundle('tampered-greeter', publisher, [intermediate]));
    const zipByte = flipped(signed, Math.floor(signatureBlockStart(signed) / 2));
    const refused = plan(zipByte, { trustedRoots: [root.cert] }, 'tampered-greeter.mcpb');
    await expect(refused).rejects.toThrow(
      'tampered-greeter.mcpb is signed, but the signature does not match its contents: the file was changed after it was signed, or damaged on the way. It is not installed.',
    );
    await expect(refused).rejects.toMatchObject({ code: 'invalid-argument', data: { reason: 'signature-tampered', file: 'tampered-greeter.mcpb' } });
    // The last bytes of the PKCS#7 data are the signature value.
    const sigByte = flipped(signed, signed.length - 'MCPB_SIG_END'.length - 3);
    await expect(plan(sigByte, { trustedRoots: [root.cert] }, 'x.mcpb')).rejects.toThrow(/x\.mcpb is signed, but the signature does not match its contents/);
    // The same bytes as signed still install.
    expect((await plan(signed, { trustedRoots: [root.cert] })).signature?.status).toBe('verified');
  });

  it('a damaged signature block (cut short, a wrong length, not PKCS#7) is refused, saying what, where, and how to fix it', async () => {
    const signed = readFileSync(signedBundle('damaged-greeter'));
    const at = signatureBlockStart(signed);
    const truncated = signed.subarray(0, signed.length - 40);
    await expect(plan(truncated, {}, 'cut.mcpb')).rejects.toThrow(
      new RegExp(
        `^cut\\.mcpb ends inside its signature block \\(at byte ${at}\\): the block is cut short: it has no MCPB_SIG_END at the end of the file \\(it says \\d+ bytes of signature follow; \\d+ do\\)\\. The file is incomplete .* Download it again`,
      ),
    );
    await expect(plan(truncated, {}, 'cut.mcpb')).rejects.toMatchObject({
      code: 'invalid-argument',
      data: { reason: 'signature-truncated', offset: String(at) },
    });
    await expect(plan(signed.subarray(0, at + 5), {}, 'cut.mcpb')).rejects.toThrow(/cut\.mcpb ends inside its signature block .*cut short/);
    const wrongLength = Buffer.from(signed);
    wrongLength.writeUInt32LE(wrongLength.readUInt32LE(at + 11) + 7, at + 11);
    await expect(plan(wrongLength, {}, 'len.mcpb')).rejects.toThrow(
      /^len\.mcpb has a damaged signature block \(at byte \d+\): the block says its signature is \d+ bytes long, but \d+ bytes are there\. It is not installed\. .*mcpb unsign FILE/,
    );
    await expect(plan(wrongLength, {}, 'len.mcpb')).rejects.toMatchObject({ data: { reason: 'signature-malformed' } });
    const garbage = Buffer.from(signed);
    garbage.fill(0x42, at + 15, garbage.length - 12);
    await expect(plan(garbage, {}, 'junk.mcpb')).rejects.toThrow(/^junk\.mcpb has a damaged signature block \(at byte \d+\): its PKCS#7 data is not DER/);
    const footerOnly = Buffer.concat([readFileSync(packBundle({ name: 'footer-greeter' })), Buffer.from('MCPB_SIG_END')]);
    await expect(plan(footerOnly, {}, 'end.mcpb')).rejects.toThrow(/end\.mcpb has a damaged signature block .*no MCPB_SIG_V1 header/);
  });

  it('the markers inside an unsigned zip (a stored file that quotes them) are not a signature block', async () => {
    const quoting = zipSync({
      'manifest.json': strToU8(JSON.stringify(bundleManifest({ name: 'quoting-greeter' }))),
      'server/index.mjs': [strToU8('// MCPB_SIG_V1\u0000\u0000\u0000\u0000 … MCPB_SIG_END'), { level: 0 }],
    });
    const shown = await plan(quoting);
    expect([shown.signature?.status, shown.notices[0]?.code]).toEqual(['unsigned', 'unsigned']);
  });

  it('every note and refusal has its Chinese wording with the same placeholders', () => {
    const placeholders = (text: string): string[] => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '').sort();
    for (const section of ['note', 'refusal'] as const) {
      for (const [key, text] of Object.entries(bundleEn[section])) {
        const zh = (bundleZhCN[section] as Record<string, string>)[key];
        expect({ key, zh: zh !== undefined && /[\u4e00-\u9fff]/.test(zh) }).toEqual({ key, zh: true });
        expect({ key, placeholders: placeholders(zh ?? '') }).toEqual({ key, placeholders: placeholders(text) });
      }
    }
  });

  it('switchboard install shows the verdict before asking, and refuses a tampered bundle with the reason (exit 2)', async () => {
    const home = tempDir();
    const config = join(tempDir(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const main = join(import.meta.dirname, '..', '..', 'cli', 'main.ts');
    const file = signedBundle('cli-greeter');
    const shown = await runPiped([main, '--config', config, 'install', file, '--set', 'api_key=k'], { PATH: process.env.PATH ?? '', HOME: home });
    expect(shown.stdout).toContain('Self-signed by MCPB Self-Signed Certificate (MCPB Extensions): the publisher is not verified.');
    writeFileSync(file, flipped(readFileSync(file), 100));
    const refused = await runPiped([main, '--config', config, 'install', file, '--yes', '--set', 'api_key=k'], { PATH: process.env.PATH ?? '', HOME: home });
    expect([refused.status, refused.stderr]).toEqual([2, expect.stringContaining('cli-greeter.mcpb is signed, but the signature does not match its contents')]);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ mcpServers: {} });
  });
});
