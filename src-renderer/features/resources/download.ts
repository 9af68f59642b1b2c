/** Offers base64 (or text) content as a file download, named after the URI's last path segment. */
export function downloadContents(contents: { uri: string; mimeType?: string; text?: string; blob?: string }): void {
  const type = contents.mimeType ?? (contents.text !== undefined ? 'text/plain' : 'application/octet-stream');
  let part: BlobPart;
  if (contents.blob !== undefined) {
    const binary = atob(contents.blob);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    part = bytes;
  } else {
    part = contents.text ?? '';
  }
  const url = URL.createObjectURL(new Blob([part], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileNameFor(contents.uri);
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function fileNameFor(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const last = path.split('/').filter(Boolean).pop() ?? 'resource';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  const safe = [...name]
    .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? '_' : c))
    .join('')
    .slice(0, 120);
  return safe === '' || /^[a-z][a-z0-9+.-]*:$/i.test(last) ? 'resource' : safe;
}

/** The decoded size of base64 text, in bytes. */
export const base64Bytes = (b64: string): number => Math.floor((b64.replace(/=+$/, '').length * 3) / 4);
