/**
 * The English catalogue: every user-visible string of the UI and the CLI, by screen. zh-CN.ts has the same keys
 * (the type Catalogue makes a missing one a compile error; i18n.test.ts checks both and every t('…') in the source).
 * Plurals: `key_one` / `key_other` (i18next with Intl.PluralRules; Chinese uses only `_other`, but keeps both keys).
 */
export const en = {
  common: {
    loading: 'Loading…',
    refresh: 'Refresh',
    close: 'Close',
    cancel: 'Cancel',
    save: 'Save',
    delete: 'Delete',
    rename: 'Rename',
    add: 'Add',
    remove: 'Remove',
    edit: 'Edit',
    send: 'Send',
    copy: 'Copy',
    copied: 'Copied',
    showAll: 'Show all',
    showLess: 'Show less',
    nothingYet: 'Nothing yet.',
    none: 'none',
    yes: 'Yes',
    no: 'No',
  },
  nav: {
    screens: 'Screens',
    chat: 'Chat',
    servers: 'Servers',
    settings: 'Settings',
  },
  header: {
    modeBadgeTitle: 'Switchboard {{version}}, {{mode}} mode',
    config: 'Config',
  },
  banners: {
    disconnected: 'Disconnected from host.',
    reconnecting: 'Reconnecting…',
    configProblem: 'The servers config has a problem.',
    location: 'line {{line}}, column {{column}}',
    keepsLastGood: 'Switchboard keeps using the last good config until the file is fixed.',
    openInEditor: 'Open in editor at line {{line}}',
  },
  status: {
    starting: 'Starting…',
    ready: 'Ready',
    error: 'Error',
    stopped: 'Stopped',
    'crash-loop': 'Crash loop',
    'needs-approval': 'Needs approval',
    'needs-login': 'Needs sign-in',
  },
  settings: {
    label: 'Settings',
    files: 'Files',
    serversConfig: 'Servers config',
    logs: 'Logs',
  },
  language: {
    heading: 'Language',
    label: 'Language of the app',
    system: 'System ({{language}})',
    hint: 'Chosen from your system or browser by default. The command line uses SWITCHBOARD_LANG (en or zh-CN), else LANG.',
  },
  chat: {
    label: 'Chat',
  },
  history: {
    label: 'Conversations',
    search: 'Search conversations',
    nothingMatches: 'Nothing matches.',
    empty: 'No saved conversations yet.',
    sub_one: '{{count}} message · {{when}}',
    sub_other: '{{count}} messages · {{when}}',
    renameLabel: 'Rename {{title}}',
    deleteLabel: 'Delete {{title}}',
    confirmDelete: 'Delete “{{title}}”?',
  },
  audit: {
    title: 'Audit log',
    intro: 'Each decision (allowed, denied, and how) and each tool call — the model’s, and the ones you made directly with /tool or a form — with its outcome, and each sampling request a server made (sizes only). Kept in <code>audit.jsonl</code> in the data folder.',
    when: 'When',
    from: 'From',
    tool: 'Tool',
    what: 'What',
    detail: 'Arguments / detail',
    direct: 'you (direct, {{source}})',
    sampling: 'sampling {{decision}}',
    noModel: 'no model',
    samplingSummary_one: '{{model}} · {{count}} message, {{chars}} characters',
    samplingSummary_other: '{{model}} · {{count}} messages, {{chars}} characters',
    resultChars: ' → {{chars}} characters',
    edited: ' · edited',
    durationMs: ' · {{ms}} ms',
  },
  errors: {
    'invalid-argument': { generic: '{{message}}' },
    'unknown-server': {
      generic: 'There is no such server in the config.',
      server: 'There is no server named "{{server}}" in the config.',
    },
    'unknown-tool': {
      generic: 'There is no such tool.',
      server: 'Server "{{server}}" has no tool {{tools}}.',
      tool: 'Server "{{server}}" has no tool "{{tool}}".',
    },
    'server-not-ready': {
      generic: 'The server is not connected: {{message}}',
      server: 'Server "{{server}}" is not connected. Start it (or wait until it is ready) and try again.',
      'needs-login': 'Server "{{server}}" needs a sign-in first.',
    },
    'tool-call-failed': {
      generic: 'The call failed: {{message}}',
      tool: 'Calling {{server}}/{{tool}} failed: {{message}}',
      cancelled: 'The server cancelled the task: {{message}}',
    },
    cancelled: { generic: 'Cancelled.' },
    'config-invalid': {
      generic: 'The config has a problem: {{message}}',
      position: 'The config has a problem at line {{line}}, column {{column}}: {{message}}',
    },
    'provider-error': { generic: 'The model provider failed: {{message}}' },
    'not-configured': { generic: 'No model provider is set up yet: add one in Chat → Providers & approvals. ({{message}})' },
    'not-supported': {
      generic: 'Not available: {{message}}',
      server: 'Server "{{server}}" does not offer this: {{message}}',
    },
    'request-failed': {
      generic: 'The request failed: {{message}}',
      server: 'Server "{{server}}" answered with an error: {{message}}',
    },
    'needs-review': {
      generic: 'This tool changed since it was trusted (or is new, or hides text): review it first. {{message}}',
      server: 'A tool of server "{{server}}" must be reviewed first. {{message}}',
    },
    internal: { generic: 'Something went wrong inside Switchboard: {{message}}' },
    disconnected: { generic: 'The connection to the host was lost: {{message}}' },
  },
  cli: {
    /** The whole --help text: en passes args.ts's `usage` through; other languages translate it (same commands and flags). */
    usage: '{{usage}}',
    unknownCommand: 'unknown command "{{command}}"',
    importNeedsSource: 'import needs one SOURCE (claude, cursor, vscode, cline, windsurf, inspector, or a file)',
    secretNeeds: 'secret needs list, set NAME [VALUE] or delete NAME',
    callNeeds: 'call needs SERVER TOOL [ARGS_JSON]',
    needsValue: '{{flag}} needs a value',
    logLevelOneOf: '--log-level must be one of {{levels}}, got {{got}}',
    approveOneOf: '--approve must be ask, all, readonly or none, got {{got}}',
    portRange: '--port must be a whole number 0-65535, got {{got}}',
    unknownOption: 'unknown option {{option}}',
  },
};

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };
/** The shape every catalogue has: the English keys, each a string. */
export type Catalogue = Strings<typeof en>;
