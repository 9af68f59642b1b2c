import { createHash, verify as verifyBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import type { asn1 as Asn1Namespace } from 'node-forge';
import type { BundleSignatureView } from '../../../src-shared/contract/install';
import { CoreError, messageOf } from '../errors';
import { refusalText, type RefusalReason } from './notes';

/*
 * MCPB signatures, checked here (the official CLI cannot: its `verify` calls node-forge's PKCS#7 verify, which is not
 * implemented, and so reports every signed bundle as "not signed"). The format `mcpb sign` writes:
 *
 *   <the unsigned zip> "MCPB_SIG_V1" <uint32 LE: n> <n bytes: PKCS#7 SignedData, DER, detached> "MCPB_SIG_END"
 *
 * The SignedData's one signer signs authenticated attributes (content type `data`, the SHA-256 message digest of the
 * unsigned zip, a signing time) with the key of a certificate the SignedData carries, beside any intermediates.
 * node-forge reads the DER; the digest, the signature (RSA PKCS#1 v1.5 or ECDSA) and the certificate chain are
 * checked with Node's crypto. A signature that does not match the bytes, or a block that cannot be read, refuses the
 * bundle. A valid signature says who signed it: "verified" only when the signer's certificate is valid now, is not
 * restricted to other uses than code signing, and chains (through certificates in the signature, each a CA valid
 * now) to one of the trusted roots (Node's tls.rootCertificates unless given). Self-signed, chaining elsewhere,
 * expired or not yet valid: installable, but the publisher is not verified (an expired certificate proves no more
 * than none: without a trusted timestamp the signature may have been made after it expired).
 */

const header = Buffer.from('MCPB_SIG_V1', 'utf8');
const footer = Buffer.from('MCPB_SIG_END', 'utf8');
/** The zip's end-of-central-directory record: "PK\5\6". */
const endOfCentralDirectory = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const maxChainLength = 8;

const oids = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  codeSigning: '1.3.6.1.5.5.7.3.3',
  anyExtendedKeyUsage: '2.5.29.37.0',
} as const;
const digests: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
const digestNames: Record<string, string> = { '1.3.14.3.2.26': 'SHA-1', '1.2.840.113549.2.5': 'MD5' };
/** RSA (PKCS#1 v1.5, with the digest named apart or in the OID) and ECDSA. */
const signatureAlgorithms = new Set([
  '1.2.840.113549.1.1.1',
  '1.2.840.113549.1.1.11',
  '1.2.840.113549.1.1.12',
  '1.2.840.113549.1.1.13',
  '1.2.840.10045.2.1',
  '1.2.840.10045.4.3.2',
  '1.2.840.10045.4.3.3',
  '1.2.840.10045.4.3.4',
]);

export interface SignatureBlock {
  /** The bytes that were signed: the zip, without the block. */
  unsigned: Buffer;
  /** The PKCS#7 DER. */
  pkcs7: Buffer;
  /** Where the block starts. */
  offset: number;
}

export interface VerifyOptions {
  /** PEM certificates trusted as roots (default: Node's tls.rootCertificates). */
  trustedRoots?: readonly string[];
  /** The time certificates must be valid at (default now). */
  now?: Date;
}

export interface SignatureVerdict {
  view: BundleSignatureView;
}

function malformed(fileLabel: string, offset: number, problem: string, reason: 'malformed' | 'truncated' = 'malformed'): CoreError {
  return refusal('invalid-argument', reason, { file: fileLabel, offset: String(offset), problem });
}

function refusal(code: 'invalid-argument' | 'not-supported', reason: RefusalReason, data: Record<string, string>): CoreError {
  return new CoreError(code, refusalText(reason, data), { data: { reason: `signature-${reason}`, ...data } });
}

/** Where the zip ends: after its end-of-central-directory record and comment (undefined: none found). */
function zipEnd(bytes: Buffer): number | undefined {
  // The record is 22 bytes and its comment at most 65535; a signature block after it is far shorter than this.
  const floor = Math.max(0, bytes.length - 22 - 65_535 - 1024 * 1024);
  for (let at = bytes.lastIndexOf(endOfCentralDirectory); at >= floor; at = at > 0 ? bytes.lastIndexOf(endOfCentralDirectory, at - 1) : -1) {
    if (at + 22 > bytes.length) continue;
    const end = at + 22 + bytes.readUInt16LE(at + 20);
    if (end <= bytes.length) return end;
  }
  return undefined;
}

/**
 * The signature block, if the file has one; a block that is there but cannot be read (truncated, a length that does
 * not fit, bytes after it) is refused, saying where.
 */
export function extractSignatureBlock(bytes: Buffer, fileLabel: string): SignatureBlock | undefined {
  const endsSigned = bytes.length >= footer.length && bytes.subarray(bytes.length - footer.length).equals(footer);
  if (endsSigned) {
    const footerAt = bytes.length - footer.length;
    // The header the length points back from: the last "MCPB_SIG_V1" whose declared length ends at the footer.
    let candidate = -1;
    for (let at = bytes.lastIndexOf(header, footerAt - 1); at >= 0; at = at > 0 ? bytes.lastIndexOf(header, at - 1) : -1) {
      const lengthAt = at + header.length;
      if (lengthAt + 4 > footerAt) continue;
      if (candidate < 0) candidate = at;
      if (lengthAt + 4 + bytes.readUInt32LE(lengthAt) === footerAt)
        return { unsigned: bytes.subarray(0, at), pkcs7: bytes.subarray(lengthAt + 4, footerAt), offset: at };
    }
    if (candidate < 0) throw malformed(fileLabel, footerAt, 'the file ends with MCPB_SIG_END but has no MCPB_SIG_V1 header before it');
    const declared = bytes.readUInt32LE(candidate + header.length);
    const there = footerAt - candidate - header.length - 4;
    throw malformed(fileLabel, candidate, `the block says its signature is ${declared} bytes long, but ${there} bytes are there`);
  }
  // No footer at the end: unsigned, unless a signature block starts after the zip (a signed file cut short).
  const end = zipEnd(bytes);
  if (end === undefined || end === bytes.length) return undefined;
  const tail = bytes.subarray(end);
  // (A tail that is the header's start was cut inside the header.)
  const cutInHeader = tail.length < header.length && header.subarray(0, tail.length).equals(tail);
  if (cutInHeader || tail.includes(header)) {
    const at = end + Math.max(0, tail.indexOf(header));
    const lengthAt = at + header.length;
    const declared = lengthAt + 4 <= bytes.length ? bytes.readUInt32LE(lengthAt) : undefined;
    const there = Math.max(0, bytes.length - lengthAt - 4);
    throw malformed(
      fileLabel,
      at,
      `the block is cut short: it has no MCPB_SIG_END at the end of the file${declared !== undefined ? ` (it says ${declared} bytes of signature follow; ${there} do)` : ''}`,
      'truncated',
    );
  }
  return undefined;
}

type Asn1 = Asn1Namespace.Asn1;
type Forge = typeof import('node-forge');

function children(node: Asn1 | undefined): Asn1[] {
  return node !== undefined && Array.isArray(node.value) ? node.value : [];
}

function bytesOf(node: Asn1 | undefined): string {
  return node !== undefined && typeof node.value === 'string' ? node.value : '';
}

/** A DER node's bytes again (node-forge keeps what it needs to write the same bytes it read). */
function derOf(forge: Forge, node: Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary');
}

/** The fields of a certificate subject or issuer, from Node's "KEY=value" lines. */
function nameFields(name: string): { commonName?: string; organization?: string; display: string } {
  const fields = new Map<string, string>();
  for (const line of name.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0 && !fields.has(line.slice(0, at))) fields.set(line.slice(0, at), line.slice(at + 1).replace(/\\(.)/g, '$1'));
  }
  const commonName = fields.get('CN');
  const organization = fields.get('O');
  const display =
    commonName !== undefined && organization !== undefined && organization !== commonName
      ? `${commonName} (${organization})`
      : (commonName ?? organization ?? name.replace(/\n/g, ', '));
  return { ...(commonName !== undefined ? { commonName } : {}), ...(organization !== undefined ? { organization } : {}), display };
}

function isIssuedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  if (!cert.checkIssued(issuer)) return false;
  try {
    return cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

function validAt(cert: X509Certificate, now: Date): 'valid' | 'expired' | 'not-yet-valid' {
  if (now.getTime() < new Date(cert.validFrom).getTime()) return 'not-yet-valid';
  if (now.getTime() > new Date(cert.validTo).getTime()) return 'expired';
  return 'valid';
}

let defaultRoots: X509Certificate[] | undefined;

function trustedRootsOf(pems: readonly string[] | undefined): X509Certificate[] {
  const parse = (list: readonly string[]): X509Certificate[] =>
    list.flatMap((pem) => {
      try {
        return [new X509Certificate(pem)];
      } catch {
        return [];
      }
    });
  if (pems !== undefined) return parse(pems);
  defaultRoots ??= parse(rootCertificates);
  return defaultRoots;
}

/** Whether the chain from `leaf` reaches a trusted root through the intermediates (each a CA valid at `now`). */
function chainsToRoot(leaf: X509Certificate, intermediates: X509Certificate[], roots: X509Certificate[], now: Date): boolean {
  let current = leaf;
  const used = new Set<X509Certificate>();
  for (let depth = 0; depth < maxChainLength; depth++) {
    if (roots.some((root) => root.fingerprint256 === current.fingerprint256)) return true;
    if (roots.some((root) => root.ca && validAt(root, now) === 'valid' && isIssuedBy(current, root))) return true;
    const next = intermediates.find((c) => !used.has(c) && c !== current && c.ca && validAt(c, now) === 'valid' && isIssuedBy(current, c));
    if (next === undefined) return false;
    used.add(next);
    current = next;
  }
  return false;
}

function usableForCode(cert: X509Certificate): boolean {
  // keyUsage is Node's list of extended key usages (undefined: the certificate has none, so any use).
  const usages: readonly string[] | undefined = cert.keyUsage;
  return usages === undefined || usages.includes(oids.codeSigning) || usages.includes(oids.anyExtendedKeyUsage);
}

/**
 * Checks the block's signature over the unsigned bytes and says who signed it. Refuses (a CoreError) a signature
 * that does not match, a block that cannot be read and algorithms it does not check.
 */
export async function verifySignatureBlock(block: SignatureBlock, fileLabel: string, options: VerifyOptions = {}): Promise<SignatureVerdict> {
  // Loaded when a bundle is signed: node-forge is large, and most bundles are not.
  const forge: Forge = (await import('node-forge')).default;
  const bad = (problem: string): CoreError => malformed(fileLabel, block.offset, problem);
  const der = block.pkcs7.toString('binary');
  let root: Asn1;
  try {
    root = forge.asn1.fromDer(der, true);
  } catch (error) {
    throw bad(`its PKCS#7 data is not DER (${messageOf(error)})`);
  }
  if (derOf(forge, root).toString('binary') !== der) throw bad('its PKCS#7 data is not DER (it does not read back to the same bytes)');
  const { Class, Type } = forge.asn1;
  const is = (node: Asn1 | undefined, type: number, tagClass: number = Class.UNIVERSAL): node is Asn1 =>
    node !== undefined && node.tagClass === tagClass && node.type === type;
  const oidOf = (node: Asn1 | undefined): string | undefined => (is(node, Type.OID) ? forge.asn1.derToOid(bytesOf(node)) : undefined);
  // ContentInfo { contentType, [0] EXPLICIT SignedData }
  const [contentType, explicit] = children(root);
  if (!is(root, Type.SEQUENCE) || oidOf(contentType) !== oids.signedData || !is(explicit, 0, Class.CONTEXT_SPECIFIC)) throw bad('it is not PKCS#7 signed data');
  // SignedData { version, digestAlgorithms, contentInfo, [0] certificates?, [1] crls?, signerInfos }
  const signedDataNode = children(explicit)[0];
  const signedData = children(signedDataNode);
  const [version, digestAlgorithms, encapsulated] = signedData;
  if (!is(signedDataNode, Type.SEQUENCE) || !is(version, Type.INTEGER) || !is(digestAlgorithms, Type.SET) || !is(encapsulated, Type.SEQUENCE))
    throw bad('its PKCS#7 signed data is not laid out as PKCS#7 says');
  const [innerType, innerContent] = children(encapsulated);
  if (oidOf(innerType) !== oids.data) throw bad('it signs something other than data');
  if (innerContent !== undefined) throw bad('it carries its content inside; an MCPB signature is detached (over the zip before it)');
  const rest = signedData.slice(3);
  const certificateSet = rest.find((n) => is(n, 0, Class.CONTEXT_SPECIFIC));
  const signerInfoSet = rest[rest.length - 1];
  if (!is(signerInfoSet, Type.SET)) throw bad('it has no signer information');
  const signerInfos = children(signerInfoSet);
  if (signerInfos.length !== 1) throw bad(`it has ${signerInfos.length} signers; an MCPB signature has one`);
  const certificates = children(certificateSet).map((node) => {
    try {
      return { node, x509: new X509Certificate(derOf(forge, node)) };
    } catch (error) {
      throw bad(`a certificate in it cannot be read (${messageOf(error)})`);
    }
  });
  if (certificates.length === 0) throw bad('it carries no certificate');

  // SignerInfo { version, issuerAndSerialNumber, digestAlgorithm, [0] authenticatedAttributes?, digestEncryptionAlgorithm, encryptedDigest, [1]? }
  const fields = children(signerInfos[0]);
  const [, issuerAndSerial, digestAlgorithm] = fields;
  const attributes = is(fields[3], 0, Class.CONTEXT_SPECIFIC) ? fields[3] : undefined;
  const [signatureAlgorithm, encryptedDigest] = fields.slice(attributes ? 4 : 3);
  if (
    !is(issuerAndSerial, Type.SEQUENCE) ||
    !is(digestAlgorithm, Type.SEQUENCE) ||
    !is(signatureAlgorithm, Type.SEQUENCE) ||
    !is(encryptedDigest, Type.OCTETSTRING)
  ) {
    throw bad('its signer information is incomplete (it needs the signer, the digest and signature algorithms and the signature)');
  }
  const digestOid = oidOf(children(digestAlgorithm)[0]) ?? '?';
  const hash = digests[digestOid];
  if (hash === undefined) throw refusal('not-supported', 'unsupported', { file: fileLabel, what: `the digest ${digestNames[digestOid] ?? digestOid}` });
  const signatureOid = oidOf(children(signatureAlgorithm)[0]) ?? '?';
  if (!signatureAlgorithms.has(signatureOid))
    throw refusal('not-supported', 'unsupported', { file: fileLabel, what: `the signature algorithm ${signatureOid}` });

  // The signer's certificate: the one whose issuer and serial number the signer names.
  const [issuerName, serial] = children(issuerAndSerial);
  if (!is(issuerName, Type.SEQUENCE) || !is(serial, Type.INTEGER)) throw bad('its signer names no certificate (an issuer and serial number)');
  const wantedIssuer = derOf(forge, issuerName);
  const wantedSerial = bytesOf(serial);
  const signer = certificates.find(({ node }) => {
    const tbs = children(children(node)[0]);
    // TBSCertificate { [0] version?, serialNumber, signature, issuer, … }
    const offset = tbs[0]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
    const certSerial = tbs[offset];
    const certIssuer = tbs[offset + 2];
    return certSerial !== undefined && certIssuer !== undefined && bytesOf(certSerial) === wantedSerial && derOf(forge, certIssuer).equals(wantedIssuer);
  });
  if (!signer) throw bad('the certificate its signer names is not in it');

  // What was signed: the digest of the zip alone, or (usually) the attributes holding that digest.
  const contentDigest = createHash(hash).update(block.unsigned).digest();
  let signedBytes: Buffer;
  if (attributes) {
    let digestAttribute: Buffer | undefined;
    let typeAttribute: string | undefined;
    for (const attribute of children(attributes)) {
      const [type, values] = children(attribute);
      const oid = oidOf(type);
      const value = children(values)[0];
      if (oid === oids.messageDigest) digestAttribute = is(value, Type.OCTETSTRING) ? Buffer.from(bytesOf(value), 'binary') : Buffer.alloc(0);
      if (oid === oids.contentType) typeAttribute = oidOf(value) ?? '?';
    }
    if (digestAttribute === undefined) throw bad('its signed attributes have no message digest');
    if (typeAttribute !== undefined && typeAttribute !== oids.data) throw bad('its signed attributes name a content type other than data');
    if (!digestAttribute.equals(contentDigest)) throw refusal('invalid-argument', 'tampered', { file: fileLabel });
    // The signature is over the attributes as a SET (the [0] tag they carry here replaced).
    signedBytes = derOf(forge, attributes);
    signedBytes[0] = 0x31;
  } else {
    signedBytes = block.unsigned;
  }
  let matches: boolean;
  try {
    const key: KeyObject = signer.x509.publicKey;
    matches = verifyBytes(hash, signedBytes, key, Buffer.from(bytesOf(encryptedDigest), 'binary'));
  } catch (error) {
    throw bad(`its signature cannot be checked (${messageOf(error)})`);
  }
  if (!matches) throw refusal('invalid-argument', 'tampered', { file: fileLabel });

  // Who signed it, and whether that can be trusted.
  const leaf = signer.x509;
  const now = options.now ?? new Date();
  const subject = nameFields(leaf.subject);
  const issuer = nameFields(leaf.issuer);
  const view: BundleSignatureView = {
    status: 'verified',
    signer: subject.display,
    ...(subject.commonName !== undefined ? { commonName: subject.commonName } : {}),
    ...(subject.organization !== undefined ? { organization: subject.organization } : {}),
    issuer: issuer.display,
    validFrom: new Date(leaf.validFrom).toISOString(),
    validTo: new Date(leaf.validTo).toISOString(),
    fingerprint: leaf.fingerprint256,
  };
  const validity = validAt(leaf, now);
  const roots = trustedRootsOf(options.trustedRoots);
  const intermediates = certificates.filter((c) => c !== signer).map((c) => c.x509);
  if (validity !== 'valid') view.status = validity;
  else if (!chainsToRoot(leaf, intermediates, roots, now)) view.status = isIssuedBy(leaf, leaf) ? 'self-signed' : 'untrusted';
  else if (!usableForCode(leaf)) view.status = 'not-for-code';
  return { view };
}
