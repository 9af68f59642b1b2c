/**
 * RFC 6570 URI templates, as resource templates use them (`file:///{path}`, `users://{id}/posts{?page,limit}`):
 * the variables a template names, and its expansion. Levels 1–4 minus value lists (every value is a string).
 */

interface Operator {
  first: string;
  sep: string;
  named: boolean;
  ifEmpty: string;
  reserved: boolean;
}

const operators: Record<string, Operator> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

interface VarSpec {
  name: string;
  prefix?: number;
}

function parseExpression(body: string): { op: Operator; vars: VarSpec[] } {
  const opChar = /^[+#./;?&]/.test(body) ? (body[0] ?? '') : '';
  const op = operators[opChar] ?? (operators[''] as Operator);
  const vars = body
    .slice(opChar.length)
    .split(',')
    .map((raw) => raw.trim())
    .filter(Boolean)
    .map((raw): VarSpec => {
      const name = raw.replace(/\*$/, '');
      const colon = name.indexOf(':');
      if (colon < 0) return { name };
      const prefix = Number(name.slice(colon + 1));
      return Number.isInteger(prefix) && prefix > 0 ? { name: name.slice(0, colon), prefix } : { name: name.slice(0, colon) };
    });
  return { op, vars };
}

const expressions = /\{([^{}]*)\}/g;

/** The variable names in order of first use. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(expressions)) {
    for (const v of parseExpression(match[1] ?? '').vars) if (!names.includes(v.name)) names.push(v.name);
  }
  return names;
}

function encode(value: string, reserved: boolean): string {
  if (reserved) {
    // Keep reserved characters and existing %XX escapes; escape the rest.
    return value.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu, (c) => encodeURIComponent(c));
  }
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Expands the template; a variable that is absent or empty in `values` is left out, as RFC 6570 leaves undefined ones. */
export function expandTemplate(template: string, values: Record<string, string | undefined>): string {
  return template.replace(expressions, (_whole, body: string) => {
    const { op, vars } = parseExpression(body);
    const parts: string[] = [];
    for (const v of vars) {
      const raw = values[v.name];
      if (raw === undefined || raw === '') continue;
      const value = encode(v.prefix === undefined ? raw : [...raw].slice(0, v.prefix).join(''), op.reserved);
      parts.push(op.named ? `${v.name}${value === '' ? op.ifEmpty : `=${value}`}` : value);
    }
    return parts.length === 0 ? '' : op.first + parts.join(op.sep);
  });
}
