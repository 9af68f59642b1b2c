/**
 * The JSON size of a message, estimated without serializing it: exact for ASCII text without escapes, cost in
 * proportion to the number of values rather than to the bytes (a 5 MB text costs as much as a short one).
 */
export function approxJsonSize(value: unknown, depth = 0): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return value < 10 && value >= 0 && Number.isInteger(value) ? 1 : String(value).length;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      if (depth > 100) return 0;
      if (Array.isArray(value)) {
        let size = 2 + Math.max(0, value.length - 1);
        for (const item of value) size += approxJsonSize(item, depth + 1);
        return size;
      }
      let size = 2;
      let first = true;
      for (const key in value) {
        const item = (value as Record<string, unknown>)[key];
        if (item === undefined || typeof item === 'function') continue;
        size += key.length + 3 + (first ? 0 : 1) + approxJsonSize(item, depth + 1);
        first = false;
      }
      return size;
    }
    default:
      return 0;
  }
}
