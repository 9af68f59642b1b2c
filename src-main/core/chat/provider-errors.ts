import { APICallError, RetryError } from 'ai';

/**
 * Provider failures as sentences a person can act on: which provider, what happened, what to do. Never includes
 * a key (the SDK's messages and the vendors' bodies do not carry the request headers).
 */

export interface ReadableError {
  code: 'provider-error' | 'not-configured' | 'cancelled' | 'internal';
  message: string;
}

function vendorMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const inner = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    const message = typeof inner === 'string' ? inner : typeof parsed.message === 'string' ? parsed.message : undefined;
    return message?.slice(0, 300);
  } catch {
    return body.trim().slice(0, 200) || undefined;
  }
}

function retryAfter(headers: Record<string, string> | undefined): string | undefined {
  const raw = headers?.['retry-after'] ?? headers?.['Retry-After'];
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return `${seconds} s`;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? raw : `${Math.max(0, Math.round((at - Date.now()) / 1000))} s`;
}

function networkCause(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+/.test(code)) return code;
    if (/terminated|socket hang up|other side closed|premature close/i.test(current.message)) return current.message;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Removes key values from a message (vendors sometimes quote the key they rejected, partly masked): the exact
 * values we hold, and anything shaped like a vendor key.
 */
export function redactKeys(text: string, keys: readonly string[] = []): string {
  let out = text;
  for (const key of keys) if (key.length >= 8) out = out.split(key).join('[redacted]');
  return out.replace(/\b(sk-(?:ant-|proj-)?)[A-Za-z0-9_*-]{6,}/g, '$1[redacted]');
}

export function describeProviderError(error: unknown, provider: string): ReadableError {
  const last = RetryError.isInstance(error) ? error.lastError : error;
  const attempts = RetryError.isInstance(error) ? error.errors.length : 1;
  const tried = attempts > 1 ? ` (tried ${attempts} times)` : '';
  if (APICallError.isInstance(last)) {
    const status = last.statusCode;
    const detail = vendorMessage(last.responseBody);
    const said = detail ? ` It said: “${detail}”` : '';
    if (status === 401 || status === 403) {
      return {
        code: 'provider-error',
        message: `${provider} rejected the API key (HTTP ${status}). Check the key in Settings → Model providers or in .env.${said}`,
      };
    }
    if (status === 429) {
      const after = retryAfter(last.responseHeaders);
      return {
        code: 'provider-error',
        message: `${provider} is rate-limiting requests (HTTP 429)${tried}.${after ? ` It asks to retry after ${after}.` : ' Wait a moment and send again.'}${said}`,
      };
    }
    if (status === 404) return { code: 'provider-error', message: `${provider} does not know that model or endpoint (HTTP 404). Pick another model.${said}` };
    if (status !== undefined && status >= 200 && status < 300) {
      // The answer had started: the stream broke.
      const network = networkCause(last);
      return { code: 'provider-error', message: `The connection to ${provider} was lost mid-answer${network ? ` (${network})` : ''}. Send again to retry.` };
    }
    if (status !== undefined) return { code: 'provider-error', message: `${provider} answered HTTP ${status}${tried}.${said}` };
    const network = networkCause(last);
    const where = provider.includes('://') ? provider : `${provider} at ${last.url}`;
    return {
      code: 'provider-error',
      message: `Could not reach ${where}${network ? ` (${network})` : ''}${tried}. Is the server running and the base URL right?`,
    };
  }
  const network = networkCause(last);
  if (network) return { code: 'provider-error', message: `The connection to ${provider} was lost mid-answer (${network}). Send again to retry.` };
  const message = last instanceof Error ? last.message : String(last);
  return { code: 'provider-error', message: `${provider} failed: ${message}` };
}
