/**
 * Installing servers (.mcpb bundles, the MCP Registry, switchboard:// links): the notes an install plan shows
 * (`bundle.note.<code>`, filled from the note's data) and why a bundle is refused (`bundle.refusal.<reason>`).
 * bundle.zh-CN.ts has the same keys and placeholders. The core writes its English text from these too.
 */
export const bundleEn = {
  note: {
    unpackedTo: 'Unpacked to {{folder}}.',
    replaces: 'Replaces the bundle already unpacked there.',
    unsigned: 'Not signed: who made it is not verified.',
    verified: 'Signed by {{signer}}, verified (certificate issued by {{issuer}}).',
    selfSigned: 'Self-signed by {{signer}}: the publisher is not verified.',
    untrusted: 'Signed by {{signer}}, but its certificate (issued by {{issuer}}) chains to no trusted root: the publisher is not verified.',
    expired: 'Signed by {{signer}} with a certificate that expired on {{date}}: the publisher is not verified.',
    notYetValid: 'Signed by {{signer}} with a certificate that is valid only from {{date}}: the publisher is not verified.',
    notForCode: 'Signed by {{signer}} with a certificate that is not for code signing: the publisher is not verified.',
    downloaded: "Downloaded from {{url}}; its sha256 matches the registry's.",
    customRegistry: 'The package comes from {{base}}, not the default {{kind}} registry.',
    fromLink: 'From a link: check that the command is what you expect before adding it.',
  },
  /** Under a signed bundle's note in the install dialog. */
  fingerprint: 'Signing certificate SHA-256: {{fingerprint}}',
  refusal: {
    tampered:
      '{{file}} is signed, but the signature does not match its contents: the file was changed after it was signed, or damaged on the way. It is not installed. Get a fresh copy from its publisher.',
    malformed:
      '{{file}} has a damaged signature block (at byte {{offset}}): {{problem}}. It is not installed. Get a fresh copy from its publisher; if you trust where it came from, remove the block with "npx @anthropic-ai/mcpb unsign FILE" and install it as an unsigned bundle.',
    truncated:
      '{{file}} ends inside its signature block (at byte {{offset}}): {{problem}}. The file is incomplete (a download cut short?), so it is not installed. Download it again, or get a fresh copy from its publisher.',
    unsupported:
      '{{file}} is signed with {{what}}, which Switchboard does not check, so it is not installed. Ask its publisher for a bundle signed with SHA-256 and RSA or ECDSA (what "mcpb sign" makes).',
  },
};
