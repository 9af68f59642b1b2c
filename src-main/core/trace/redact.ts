/**
 * Redaction for everything the trace keeps or writes: JSON-RPC messages, HTTP headers, stderr text, config.
 *
 * Two rules, applied before anything is stored (nothing unredacted is ever kept by the trace):
 * 1. By name: the string value of a field or header whose name looks sensitive (Authorization, Cookie, `*token*`,
 *    `*secret*`, `*key*`, `*password*`, `*credential*`) becomes `<redacted>` — except protocol fields that only look
 *    so (`progressToken`, `nextCursor` …). Numbers and booleans are kept (`maxTokens` is not a secret).
 * 2. By value: every occurrence of a known secret value (the secret store's values and the host's own keys, from
 *    a `() => Iterable<string>` read per call) anywhere in any string becomes `<redacted>` — as it is, JSON-escaped,
 *    URL-encoded or base64-encoded (see {@link secretForms}); so does the credential of a `Bearer …` / `Basic …`
 *    scheme.
 *
 * The walk is copy-on-write: a message with nothing to redact comes back as the same object, so the common case
 * allocates nothing.
 */

export const redactedText = '<redacted>';

/** Field and header names whose string values are always redacted. */
const sensitiveName = /authorization|cookie|token|secret|password|passwd|passphrase|credential|key|session[-_]?token|signature/i;
/** Names that match the pattern but carry protocol data, not secrets. */
const notSensitive = new Set(['progressToken', 'maxTokens', 'keywords', 'keys']);

/** Secret values shorter than this are not searched for (a 1-3 character "secret" would redact every word). */
export const minSecretLength = 4;

const nameVerdicts = new Map<string, boolean>();

export function isSensitiveName(name: string): boolean {
  let verdict = nameVerdicts.get(name);
  if (verdict === undefined) {
    verdict = !notSensitive.has(name) && sensitiveName.test(name);
    // Names repeat (jsonrpc, id, method, params …): remember a bounded number of them.
    if (nameVerdicts.size > 10_000) nameVerdicts.clear();
    nameVerdicts.set(name, verdict);
  }
  return verdict;
}

export interface Redactor {
  /** A copy of `value` with secrets replaced; `value` itself when there was nothing to replace. */
  value<T>(value: T): T;
  /** `text` with known secret values and `Bearer …` credentials replaced. */
  text(text: string): string;
  /** Header values: by name, then by value. Names are kept. */
  headers(headers: Record<string, string>): Record<string, string>;
}

export interface RedactorOptions {
  /**
   * The values to hide wherever they occur (the secret store's values, the host's API keys, resolved `${secret:}`
   * and `${env:}` references). Called once per redaction: return a cached array, not a fresh keychain read.
   */
  secretValues?: () => Iterable<string>;
}

const schemeCredential = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{4,}/g;

/** Encoded text shorter than this is not searched for on its own: 8 base64 characters stand for 6 bytes of a secret. */
const minEncodedCore = 8;

/**
 * The forms a secret value takes in text: itself; JSON-escaped (inside a JSON text); URL-encoded
 * (`encodeURIComponent`, a query or form value); base64, standard and url-safe, with and without padding (a Basic
 * credential, a header or blob a server logs). A secret inside a longer base64 text (`user:secret` encoded) is encoded
 * differently at each of the three byte offsets it can start at: for each, the characters that stand for its bytes
 * alone (the middle, without the characters mixed with the bytes around it) are searched for too, when there are at
 * least {@link minEncodedCore} of them.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  const bytes = Buffer.from(secret, 'utf8');
  const standard = bytes.toString('base64');
  const urlSafe = bytes.toString('base64url');
  for (const form of [standard, standard.replace(/=+$/, ''), urlSafe, urlSafe.padEnd(standard.length, '=')]) forms.add(form);
  for (let shift = 0; shift < 3; shift++) {
    // `shift` bytes before the secret: its first whole 3-byte group starts at byte `3` (or `0` when nothing precedes).
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const start = shift === 0 ? 0 : 4;
    const end = Math.floor((shift + bytes.length) / 3) * 4;
    const core = encoded.slice(start, end);
    if (core.length < minEncodedCore) continue;
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms];
}

interface Needles {
  /** Every form of every secret (see {@link secretForms}); longest first. */
  values: string[];
  /** The shortest of them: a shorter string cannot hold one. */
  shortest: number;
}

/** The shortest text a scheme credential (`Bearer xxxx`) fits in. */
const shortestCredential = 'Basic xxxx'.length;

export function createRedactor(options: RedactorOptions = {}): Redactor {
  // The needles are rebuilt only when the secret values change (a source that returns the same array each time
  // costs one comparison per message).
  let lastSource: Iterable<string> | undefined;
  let lastList: string[] = [];
  let cached: Needles = { values: [], shortest: Infinity };
  const needles = (): Needles => {
    const source = options.secretValues?.();
    if (source === undefined) return cached;
    const list = Array.isArray(source) ? (source as string[]) : [...source];
    if (source === lastSource && list.length === lastList.length && list.every((v, i) => v === lastList[i])) return cached;
    lastSource = source;
    lastList = list.slice();
    const forms = new Set<string>();
    for (const secret of list) {
      if (typeof secret !== 'string' || secret.length < minSecretLength) continue;
      for (const form of secretForms(secret)) forms.add(form);
    }
    // Longest first: a secret that contains another (or a padded base64 form its unpadded one) is replaced whole.
    const values = [...forms].sort((a, b) => b.length - a.length);
    cached = { values, shortest: values.reduce((min, v) => Math.min(min, v.length), Infinity) };
    return cached;
  };

  const text = (input: string, n: Needles): string => {
    let out = input;
    if (out.length >= n.shortest) for (const secret of n.values) if (out.includes(secret)) out = out.split(secret).join(redactedText);
    // Cheap gate before the regex: most strings name no auth scheme.
    if (out.length >= shortestCredential && (out.includes('earer ') || out.includes('asic ') || out.includes('oken ')))
      out = out.replace(schemeCredential, `$1 ${redactedText}`);
    return out;
  };

  const walk = (value: unknown, n: Needles, depth: number): unknown => {
    if (typeof value === 'string') return text(value, n);
    if (typeof value !== 'object' || value === null) return value;
    if (depth > 100) return redactedText; // not a JSON message any more: keep nothing of it
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const next = walk(item, n, depth + 1);
        if (next !== item) {
          copy ??= value.slice();
          copy[i] = next;
        }
      }
      return copy ?? value;
    }
    let copy: Record<string, unknown> | undefined;
    const record = value as Record<string, unknown>;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const item = record[key];
      let next: unknown;
      if (isSensitiveName(key) && (typeof item === 'string' || isStringArray(item))) {
        next = typeof item === 'string' ? (item === '' ? item : redactedText) : (item as string[]).map(() => redactedText);
      } else {
        next = walk(item, n, depth + 1);
      }
      if (next !== item) {
        copy ??= { ...record };
        copy[key] = next;
      }
    }
    return copy ?? value;
  };

  return {
    value<T>(value: T): T {
      return walk(value, needles(), 0) as T;
    },
    text(input: string): string {
      return text(input, needles());
    },
    headers(headers: Record<string, string>): Record<string, string> {
      const n = needles();
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) out[name] = isSensitiveName(name) ? redactedText : text(value, n);
      return out;
    },
  };
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string');
}

/** Redacts nothing: for tests and for a trace that is never shown. */
export const noRedaction: Redactor = { value: (v) => v, text: (t) => t, headers: (h) => h };

/**
 * A command-line argument that looks like a credential: `--token=…` / `--api-key …` (the value), a bearer header,
 * or a token-shaped string (provider prefixes such as `sk-`, `ghp_`, `xoxb-`; or a long mixed letters+digits run
 * with no path or URL shape).
 */
export function redactArgs(args: readonly string[], redactor?: Redactor): string[] {
  const out: string[] = [];
  let nextIsSecret = false;
  for (const arg of args) {
    if (nextIsSecret) {
      out.push(arg.startsWith('-') ? arg : redactedText);
      nextIsSecret = false;
      if (!arg.startsWith('-')) continue;
    }
    const flag = /^(--?[A-Za-z0-9][A-Za-z0-9_.-]*)(=(.*))?$/s.exec(arg);
    if (flag) {
      const name = flag[1] ?? '';
      if (isSensitiveName(name.replace(/^-+/, ''))) {
        if (flag[2] !== undefined) out.push(`${name}=${redactedText}`);
        else {
          out.push(arg);
          nextIsSecret = true;
        }
        continue;
      }
    }
    out.push(looksLikeToken(arg) ? redactedText : (redactor?.text(arg) ?? arg));
  }
  return out;
}

const tokenPrefixes = /^(sk-|sk_|pk_|rk_|ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|xox[abprs]-|AKIA|ASIA|AIza|ya29\.|eyJ)/;

export function looksLikeToken(value: string): boolean {
  if (/^(Bearer|Basic|Token)\s+\S{4,}/i.test(value)) return true;
  if (value.length >= 12 && tokenPrefixes.test(value) && !/\s/.test(value)) return true;
  if (value.length < 24 || /[\s/\\:@.]/.test(value)) return false;
  return /[A-Za-z]/.test(value) && /\d/.test(value) && /^[A-Za-z0-9_+=-]+$/.test(value);
}

/** A URL with its user info and query values hidden (`?key=<redacted>`); scheme, host and path are kept. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const user = parsed.username !== '' || parsed.password !== '' ? 'redacted@' : '';
  const params = [...new Set(parsed.searchParams.keys())];
  const query = params.length === 0 ? '' : `?${params.map((k) => `${encodeURIComponent(k)}=${redactedText}`).join('&')}`;
  return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}${query}`;
}
