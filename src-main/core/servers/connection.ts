/*
 * The old name of a server's supervision, kept for the many places that import it: `Connection` is the
 * Supervisor (src-main/core/servers/supervisor.ts), which runs one Session (servers/session.ts) per start.
 */
export { Supervisor as Connection, type SupervisorEvents as ConnectionEvents } from './supervisor';
export { defaultPolicy, type SupervisionPolicy } from './policy';
export { clientInfo } from './mcp-client';
export type { ResolvedServer } from '../config/resolve';
export type { SupervisorDeps as ConnectionDeps } from './supervisor-deps';
export { challengeParams } from '../auth/challenge';
