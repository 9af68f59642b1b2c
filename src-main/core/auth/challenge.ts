/** The auth-params of a WWW-Authenticate header (`Bearer realm="x", resource_metadata="…"`), names lower-cased. */
export function challengeParams(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of header.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    const name = match[1]?.toLowerCase();
    if (name === undefined || name in params) continue;
    params[name] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '');
  }
  return params;
}
