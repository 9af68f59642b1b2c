import { logLevels, type LogLevel } from '../../src-shared/host-api';
import { cliT } from './i18n';

/** The CLI's argument grammar: `[--config FILE] [--json] [--log-level LEVEL] [--trace FILE] COMMAND [ARGS…] [--port N] [--host H] …`. */
export interface CliArgs {
  config?: string;
  /** The data folder instead of the app's own (settings, secrets, approvals, logs; and the default config, DIR/mcp.json). */
  dataDir?: string;
  json: boolean;
  command?: string;
  positionals: string[];
  port?: number;
  host?: string;
  help: boolean;
  /** import: add what does not conflict without asking. */
  yes: boolean;
  /** import: move literal secret-looking values into secret storage. */
  moveSecrets: boolean;
  /** chat: `provider:model`. */
  model?: string;
  /** chat: use the model and base URL the working folder's `.env` sets, for this run, without asking. */
  trustDotenv: boolean;
  /** What runs without asking: sampling for every command that connects, and the chat's tool calls. */
  approve?: 'ask' | 'all' | 'readonly' | 'none';
  /** chat: how the model is offered tools this run (else the chat setting). */
  toolLoading?: 'auto' | 'all' | 'search';
  /** chat: the toolset (Settings → Chat) this run uses instead of the default one. */
  toolset?: string;
  /** chat: only these servers' tools this run. */
  servers?: string[];
  /** serve: allow binding to a non-loopback address. */
  allowRemote: boolean;
  /** serve: keep the access token across restarts (in the data folder, 0600), so open tabs reconnect. */
  keepToken: boolean;
  /** serve: print the first line only once every server has settled (ready, error, needs-approval, needs-login). */
  waitReady: boolean;
  /** call: progress (and task state) lines on stderr. */
  progress: boolean;
  /** call: run as a task where the tool allows it. */
  task: boolean;
  /** complete: the other arguments already chosen (JSON object of strings). */
  context?: string;
  /** Server log messages at or above this level on stderr (and asked of every server). */
  logLevel?: LogLevel;
  /** Every JSON-RPC message of every server, as JSON Lines, to this file. */
  trace?: string;
  /** export: write the values of `${secret:NAME}` references instead of the references. */
  inlineSecrets: boolean;
  /** login: only print the authorization URL (do not open a browser). */
  noBrowser: boolean;
  /** registry add, install: values of the server's inputs (`KEY=VALUE`, repeatable). */
  set: string[];
  /** registry: the registry's base URL (default the official MCP Registry). */
  registry?: string;
  /** registry search: the next page. */
  cursor?: string;
  /** registry add, install: the config key to add it under. */
  name?: string;
  /** registry add: npm | pypi | oci | remote — which of the entry's packages or remotes to use. */
  use?: string;
}

export class UsageError extends Error {}

export const usage = `Usage: switchboard [--config FILE] [--data-dir DIR] [--json] [--log-level LEVEL] [--trace FILE] [--approve MODE] <command>

Commands:
  list                         connect every enabled server; one row each (name, transport, status, protocol, tools, error)
  tools [SERVER]               the tools of every ready server, or of one (marked when changed/new/flagged; hidden text decoded);
                               servers not ready are named on stderr with why (exit 1 when none is)
  trust SERVER [TOOL…|SKILL…]  accept the current definitions of the tools and skills that changed since they were trusted
                               (or those named)
  call SERVER TOOL [ARGS_JSON] [--progress] [--task]
                               call a tool; exit 0 on success, 1 when the result is an error, 2 for usage/config errors
                               (--progress: "progress 2/4 message" and task state lines on stderr; --task: run it as a
                               task where the tool allows; task-only tools always run as one)
  apps [SERVER]                the MCP Apps of every ready server, or of one: each tool with a UI resource (ui://), its
                               visibility, CSP and permissions, checked (mime, size) and pinned with the tool; exit 1
                               when the server named is not ready or a UI resource is invalid. The app draws them in its call cards
  resources [SERVER]           the resources, then the resource templates, of every ready server, or of one
  read SERVER URI              a resource's contents: text to stdout, binary as [blob MIME, N bytes] (--json: all of it)
  prompts [SERVER]             the prompts (with their arguments; [optional]) of every ready server, or of one
  prompt SERVER NAME [ARGS_JSON]
                               a prompt's messages, with its arguments as a JSON object of strings
  complete SERVER prompt|resource NAME_OR_TEMPLATE ARG VALUE [--context JSON]
                               completions of a prompt argument or a resource template variable, one per line
                               (--context: the other arguments already chosen, e.g. '{"category": "fruit"}')
  ping SERVER                  is it there: ping (legacy) or server/discover (2026-07-28), with the round trip
  skills [SERVER]              the skills (io.modelcontextprotocol/skills) of every ready server, or of one: name,
                               description, URI; marked when changed/new/flagged (--json: [{server, name, description, uri}])
  skill SERVER NAME            a skill's SKILL.md (--json: the skills/get result); exit 2 for an unknown server, 1 for
                               an unknown skill or a server without skills
  login SERVER [--no-browser]  sign in to a remote server with OAuth: prints the authorization URL (and opens it in the
                               browser unless --no-browser), waits for the redirect on 127.0.0.1; the tokens are kept
                               as secrets and refreshed silently. A server that needs it shows status needs-login
  logout SERVER                sign out: revokes the tokens where the authorization server offers it, deletes them
  doctor [SERVER]              per server: resolved command, env names, connect result, protocol, time to ready, stderr tail
  import SOURCE [--yes] [--move-secrets]
                               add servers from claude | cursor | vscode | cline | windsurf | inspector | FILE
                               (shows a preview; --yes adds what does not conflict and skips what does)
  export [SERVER…] [--inline-secrets]
                               Claude-compatible JSON for all servers, or the ones named; each ${'${secret:NAME}'} kept
                               is named on stderr (Claude cannot resolve it). --inline-secrets writes the values instead
                               (a file it is redirected to is made 0600)
  secret list | set NAME [VALUE] | delete NAME
                               ${'${secret:NAME}'} values (set reads VALUE from stdin when omitted)
  chat [--model provider:model] [--approve ask|all|readonly|none] [--tool-loading auto|all|search] [--toolset NAME]
       [--servers A,B] [--trust-dotenv] "MESSAGE"
                               ask an LLM that may use the servers' tools; the answer streams to stdout, tool
                               calls and approval prompts to stderr (ask: prompt on a terminal, deny without one;
                               all: run every call; readonly: run readOnlyHint tools, ask for others; none: never run one).
                               The first stderr line names provider, model and endpoint. A model or base URL set by
                               the .env of the folder you run it in is used once confirmed (asked on a terminal,
                               recorded) or with --trust-dotenv (this run only); otherwise it is left out, saying so.
                               --tool-loading (default: the chat setting, auto): all offers every tool's definition;
                               search offers a search_tools tool that loads what it finds; auto searches above 30
                               tools or ~8k tokens of definitions.
                               --toolset NAME offers only that toolset's tools (defined in Settings → Chat; default:
                               the chat setting defaultToolset, else all); --servers A,B only those servers' tools.
                               An unknown toolset or server exits 2
  registry search [TERM] [--registry URL] [--cursor C]
                               servers in the MCP Registry (default https://registry.modelcontextprotocol.io)
  registry add NAME [--yes] [--set KEY=VALUE…] [--name N] [--use npm|pypi|oci|mcpb|remote] [--registry URL]
                               add a registry server as an entry pinned to its exact version (npx -y pkg@V, uvx pkg==V,
                               docker run -i --rm IMAGE:V, its remote URL, or its .mcpb downloaded and sha256-checked);
                               prints the full command first, asks for
                               its variables on a terminal (secret ones go to secret storage); deprecated/deleted refused
  install FILE.mcpb [--yes] [--set KEY=VALUE…] [--name N]
                               install an MCP Bundle: manifest checked, unpacked to the data folder's bundles/NAME/,
                               user_config asked for (sensitive values as secrets). A signature is checked first (a
                               bundle changed after signing is refused) and its signer shown: "verified" only when
                               the certificate chains to a trusted root; otherwise it installs as an unsigned one
  uninstall NAME               remove a server's entry (and, for a bundle, its files and the secrets it stored)
  serve [--port N] [--host H] [--allow-remote] [--keep-token] [--wait-ready]
                               headless mode (loopback only unless --allow-remote): the app in a browser; the first line on stdout is the URL (with its token).
                               Without --port it reuses the last run's port when free; --port 0 takes any free port;
                               --keep-token keeps the token too (stored 0600 in the data folder), so a tab left open
                               reconnects after a restart. With --json the first line is
                               {"url","pid","configPath","dataDir","sandboxOrigin"}; --wait-ready prints it only once every
                               server has settled (ready, error, needs-approval or needs-login)

Options:
  --config FILE   the servers config (default: SWITCHBOARD_CONFIG, else mcp.json in the data folder)
  --data-dir DIR  the data folder (settings, secrets, approvals, logs; created 0700 when missing) instead of
                  ~/.config/Switchboard (a test's own, say); its mcp.json is the default config, a first-run one when new
  --json          print exactly one JSON document on stdout
  --log-level LEVEL
                  server log messages at or above LEVEL on stderr as "[server] level logger: data" (and LEVEL asked
                  of every server); debug, info, notice, warning, error, critical, alert or emergency
  --trace FILE    every JSON-RPC message of every server, appended to FILE as JSON Lines
                  {"time","server","direction":"send"|"receive","message"} (secrets redacted)
  --approve all|ask|readonly|none
                  what servers may do without asking, for every command that connects (call, read, prompt, chat…):
                  sampling (a server asks to run a model) — all: allow it and send the model's answer; none: decline;
                  ask (default; readonly too): prompt on stderr on a terminal, decline without one. Forms and links a
                  server asks for are prompted on a terminal (field by field; links opened only on yes, https only)
                  and declined without one. chat's tool calls follow it too (readonly: run readOnlyHint tools, ask
                  for others)
  -h, --help      this help

A command that names a SERVER starts that server alone; its arguments are checked before any server starts.

Exit codes: 0 ok; 1 a request or tool failed, or the server is not ready; 2 usage or config errors.`;

export function parseArgs(argv: readonly string[]): CliArgs {
  const out: CliArgs = {
    json: false,
    positionals: [],
    help: false,
    yes: false,
    moveSecrets: false,
    trustDotenv: false,
    allowRemote: false,
    keepToken: false,
    waitReady: false,
    progress: false,
    task: false,
    noBrowser: false,
    inlineSecrets: false,
    set: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const value = (): string => {
      const [flag, inline] = arg.split(/=(.*)/s, 2);
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new UsageError(cliT('cli.needsValue', { flag: flag ?? arg }));
      return next;
    };
    if (arg === '--json') out.json = true;
    else if (arg === '-h' || arg === '--help') out.help = true;
    else if (arg === '--yes' || arg === '-y') out.yes = true;
    else if (arg === '--move-secrets') out.moveSecrets = true;
    else if (arg === '--allow-remote') out.allowRemote = true;
    else if (arg === '--trust-dotenv') out.trustDotenv = true;
    else if (arg === '--keep-token') out.keepToken = true;
    else if (arg === '--wait-ready') out.waitReady = true;
    else if (arg === '--progress') out.progress = true;
    else if (arg === '--task') out.task = true;
    else if (arg === '--no-browser') out.noBrowser = true;
    else if (arg === '--inline-secrets') out.inlineSecrets = true;
    else if (arg === '--trace' || arg.startsWith('--trace=')) out.trace = value();
    else if (arg === '--context' || arg.startsWith('--context=')) out.context = value();
    else if (arg === '--set' || arg.startsWith('--set=')) out.set.push(value());
    else if (arg === '--registry' || arg.startsWith('--registry=')) out.registry = value();
    else if (arg === '--cursor' || arg.startsWith('--cursor=')) out.cursor = value();
    else if (arg === '--name' || arg.startsWith('--name=')) out.name = value();
    else if (arg === '--use' || arg.startsWith('--use=')) out.use = value();
    else if (arg === '--log-level' || arg.startsWith('--log-level=')) {
      const raw = value();
      const level = logLevels.find((l) => l === raw);
      if (level === undefined) throw new UsageError(cliT('cli.logLevelOneOf', { levels: logLevels.join(', '), got: JSON.stringify(raw) }));
      out.logLevel = level;
    } else if (arg === '--config' || arg.startsWith('--config=')) out.config = value();
    else if (arg === '--data-dir' || arg.startsWith('--data-dir=')) {
      const raw = value();
      if (raw === '') throw new UsageError(cliT('cli.needsValue', { flag: '--data-dir' }));
      out.dataDir = raw;
    } else if (arg === '--host' || arg.startsWith('--host=')) out.host = value();
    else if (arg === '--model' || arg.startsWith('--model=')) out.model = value();
    else if (arg === '--approve' || arg.startsWith('--approve=')) {
      const raw = value();
      if (raw !== 'ask' && raw !== 'all' && raw !== 'readonly' && raw !== 'none') throw new UsageError(cliT('cli.approveOneOf', { got: JSON.stringify(raw) }));
      out.approve = raw;
    } else if (arg === '--tool-loading' || arg.startsWith('--tool-loading=')) {
      const raw = value();
      if (raw !== 'auto' && raw !== 'all' && raw !== 'search') throw new UsageError(cliT('cli.toolLoadingOneOf', { got: JSON.stringify(raw) }));
      out.toolLoading = raw;
    } else if (arg === '--toolset' || arg.startsWith('--toolset=')) {
      const raw = value().trim();
      if (raw === '') throw new UsageError(cliT('cli.needsValue', { flag: '--toolset' }));
      out.toolset = raw;
    } else if (arg === '--servers' || arg.startsWith('--servers=')) {
      const names = value()
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== '');
      if (names.length === 0) throw new UsageError(cliT('cli.needsValue', { flag: '--servers' }));
      out.servers = [...new Set(names)];
    } else if (arg === '--port' || arg.startsWith('--port=')) {
      const raw = value();
      const port = Number(raw);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(cliT('cli.portRange', { got: JSON.stringify(raw) }));
      out.port = port;
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(cliT('cli.unknownOption', { option: arg }));
    else if (out.command === undefined) out.command = arg;
    else out.positionals.push(arg);
  }
  return out;
}
