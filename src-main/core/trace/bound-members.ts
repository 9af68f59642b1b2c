/**
 * For a Proxy's `get` trap over an object whose methods must run on the object itself (a transport with private
 * fields): the target's value for `prop`, with a method bound to the target — the same bound function each time
 * while the method is the same, so identity checks (e.g. removing a listener) keep working. One per proxy.
 */
export function boundMembers(): (target: object, prop: PropertyKey) => unknown {
  const bound = new Map<PropertyKey, { source: (...args: unknown[]) => unknown; bound: (...args: unknown[]) => unknown }>();
  return (target, prop) => {
    const value: unknown = Reflect.get(target, prop, target);
    if (typeof value !== 'function' || prop === 'constructor') return value;
    const fn = value as (...args: unknown[]) => unknown;
    const cached = bound.get(prop);
    if (cached?.source === fn) return cached.bound;
    const b = fn.bind(target);
    bound.set(prop, { source: fn, bound: b });
    return b;
  };
}
