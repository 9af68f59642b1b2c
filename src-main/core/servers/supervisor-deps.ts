import type { RemoteServerAuth } from '../auth/server-auth';
import type { SamplingRecord } from '../chat/audit-log';
import type { Sampler } from '../chat/sampler';
import type { ResolvedServer } from '../config/resolve';
import type { ChildLedger } from '../process/ledger';
import type { RequestQueue } from '../requests/queue';
import type { RotatingLog } from '../support/log-file';
import type { PinStore } from '../trust/pins';
import type { SkillPinStore } from '../trust/skill-pins';
import type { EraCache } from './era-cache';
import type { HostEmit } from './features/feature';
import type { SupervisionPolicy } from './policy';
import type { FetchDecorator, TransportDecorator } from './transports';
import type { RequestSpanMaker } from '../trace/trace-context';

/** What a server's supervisor is given by its owner (the server fleet). */
export interface SupervisorDeps {
  policy?: Partial<SupervisionPolicy>;
  eraCache?: EraCache;
  ledger?: ChildLedger;
  /** This server's stderr log (rotating). */
  log?: RotatingLog;
  /** Hides known secrets in a stderr line before it is kept or shown (the log files' redaction). */
  redact?: (text: string) => string;
  /** Wraps every transport this server's sessions open (the protocol trace). */
  decorateTransport?: TransportDecorator;
  /** The span of each request this server's sessions send, while spans are exported (the host's Telemetry). */
  requestSpans?: RequestSpanMaker;
  /** Wraps every remote transport's fetch (the trace's HTTP status and `Mcp-*` headers). */
  decorateFetch?: FetchDecorator;
  /** OAuth sign-in for remote servers (the host's AuthManager). */
  auth?: { forServer(server: ResolvedServer, changed: () => void): RemoteServerAuth | undefined };
  /** Host events the feature modules push (`features:changed`, `logs:appended`, `calls:progress`, …). */
  emit?: HostEmit;
  /** Pinned tool definitions: tools that changed, are new or hide text need review before use. */
  pins?: PinStore;
  /** Pinned skills: skills that changed, are new or hide text need review before the model is offered them. */
  skillPins?: SkillPinStore;
  /** Where sampling and elicitation requests go to be answered by a person (absent: they are declined). */
  requests?: RequestQueue;
  /** Runs sampling requests on the chat's providers. */
  sampler?: Sampler;
  /** One audit entry per sampling request. */
  audit?: { recordSampling(record: SamplingRecord): void };
  /** The context a sampling request's `includeContext` asks for (this server's, or every ready server's). */
  samplingContext?: (server: string, scope: 'thisServer' | 'allServers') => string | undefined;
  /** Which face answers requests (the audit entries' source); default 'app'. */
  answerSource?: 'app' | 'cli';
}
