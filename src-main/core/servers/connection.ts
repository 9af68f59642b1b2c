/*
 * The old name of a server's supervision, kept for the many places that import it: `Connection` is the
 * Supervisor (src-main/core/servers/supervisor.ts), which runs one Session (servers/session.ts) per start.
 */
export { Supervisor as Connection, type SupervisorEvents as ConnectionEvents } from './supervisor';
export { clientInfo, defaultPolicy, type ResolvedServer, type SupervisionPolicy, type SupervisorDeps as ConnectionDeps } from './policy';
export { challengeParams } from './diagnosis';
