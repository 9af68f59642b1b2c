import { hostChannelNames, type HostApi, type HostMethods } from '../../src-shared/host-api';

/** A HostApi whose channels reject unless overridden: for tests of a boundary (IPC, bridge), not of the core. */
export function fakeHostApi(overrides: Partial<HostMethods> = {}): HostApi {
  const api: Record<string, unknown> = {};
  for (const channel of hostChannelNames) api[channel] = () => Promise.reject(new Error(`${channel} is not used by this test`));
  return { ...(api as unknown as HostMethods), ...overrides, on: () => () => undefined };
}
