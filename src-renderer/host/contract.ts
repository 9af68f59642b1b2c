/*
 * The renderer's view of the contract. src-shared/host-api.ts is zod-free at runtime, so the page imports its
 * values directly (the zod schemas main parses with live in host-schemas.ts, which the renderer never loads).
 */
export { HostCallError, hostChannelNames as channelNames, isHostEventName as isEventName, preloadGlobalName, unwrap } from '../../src-shared/host-api';
