import type { Catalogue } from './en';

/** 简体中文目录：与 en.ts 的键完全相同（类型 Catalogue 保证，i18n.test.ts 再检查一遍）。 */
export const zhCN: Catalogue = {
  common: {
    loading: '加载中…',
    refresh: '刷新',
    close: '关闭',
    cancel: '取消',
    save: '保存',
    delete: '删除',
    rename: '重命名',
    add: '添加',
    remove: '移除',
    edit: '编辑',
    send: '发送',
    copy: '复制',
    copied: '已复制',
    showAll: '显示全部',
    showLess: '收起',
    nothingYet: '暂无内容。',
    none: '无',
    yes: '是',
    no: '否',
  },
  nav: {
    screens: '页面',
    chat: '聊天',
    servers: '服务器',
    settings: '设置',
  },
  header: {
    modeBadgeTitle: 'Switchboard {{version}}，{{mode}} 模式',
    config: '配置',
  },
  banners: {
    disconnected: '与主机的连接已断开。',
    reconnecting: '正在重新连接…',
    configProblem: '服务器配置有问题。',
    location: '第 {{line}} 行，第 {{column}} 列',
    keepsLastGood: '在文件修复之前，Switchboard 会继续使用上一份有效的配置。',
    openInEditor: '在编辑器中打开第 {{line}} 行',
  },
  status: {
    starting: '启动中…',
    ready: '就绪',
    error: '出错',
    stopped: '已停止',
    'crash-loop': '反复崩溃',
    'needs-approval': '需要批准',
    'needs-login': '需要登录',
  },
  settings: {
    label: '设置',
    files: '文件',
    serversConfig: '服务器配置',
    logs: '日志',
  },
  language: {
    heading: '语言',
    label: '应用语言',
    system: '跟随系统（{{language}}）',
    hint: '默认根据系统或浏览器选择。命令行使用 SWITCHBOARD_LANG（en 或 zh-CN），否则使用 LANG。',
  },
  chat: {
    label: '聊天',
  },
  history: {
    label: '会话',
    search: '搜索会话',
    nothingMatches: '没有匹配的会话。',
    empty: '还没有保存的会话。',
    sub_one: '{{count}} 条消息 · {{when}}',
    sub_other: '{{count}} 条消息 · {{when}}',
    renameLabel: '重命名 {{title}}',
    deleteLabel: '删除 {{title}}',
    confirmDelete: '删除“{{title}}”？',
  },
  audit: {
    title: '审计日志',
    intro: '每一次决定（允许、拒绝以及方式）和每一次工具调用——模型发起的，以及你用 /tool 或表单直接发起的——及其结果，还有服务器发起的每个采样请求（仅记录大小）。保存在数据文件夹的 <code>audit.jsonl</code> 中。',
    when: '时间',
    from: '来源',
    tool: '工具',
    what: '内容',
    detail: '参数 / 详情',
    direct: '你（直接调用，{{source}}）',
    sampling: '采样 {{decision}}',
    noModel: '无模型',
    samplingSummary_one: '{{model}} · {{count}} 条消息，{{chars}} 个字符',
    samplingSummary_other: '{{model}} · {{count}} 条消息，{{chars}} 个字符',
    resultChars: ' → {{chars}} 个字符',
    edited: ' · 已编辑',
    durationMs: ' · {{ms}} 毫秒',
  },
  toolbar: {
    history: '历史',
    newChat: '新聊天',
    model: '模型',
    noProvider: '尚无模型服务',
    providers: '模型服务与审批',
    audit: '审计日志',
  },
  sidebar: {
    label: '服务器',
    heading: '服务器',
    show: '显示服务器列表',
    hide: '隐藏服务器列表',
    readyTitle: '{{total}} 个服务器中 {{ready}} 个就绪',
    ready: '{{ready}}/{{total}} 就绪',
    connecting: '正在连接主机…',
    empty: '尚未配置服务器。请在配置文件的 "mcpServers" 下添加。',
  },
  serverRow: {
    backToChat: '{{server}}：返回聊天',
    openPage: '{{server}}：打开其页面（工具、资源、提示、日志、跟踪）',
    disabled: '已禁用',
    restartLabel: '重启 {{server}}',
    restarting: '正在重启…',
    restart: '重启',
    editLabel: '编辑 {{server}}',
    transport: '传输方式',
    protocol: '协议版本',
    protocolEra: '协议版本（{{era}}）',
    implementation: '服务器实现',
    resources_one: '{{count}} 个资源',
    resources_other: '{{count}} 个资源',
    prompts_one: '{{count}} 个提示',
    prompts_other: '{{count}} 个提示',
    unhealthy: '不健康',
    readyTitle: '从启动到就绪的时间',
    readyIn: '{{time}} 内就绪',
    noReason: '服务器失败，但没有给出原因。',
    waitingInput: '正在等待 <code>{{input}}</code> 的值，之后才能启动。',
    restartFailed: '重启失败：{{error}}',
    autoRestartIn: '{{seconds}} 秒后自动重启。',
    restarted_one: '已自动重启 {{count}} 次。',
    restarted_other: '已自动重启 {{count}} 次。',
  },
  composer: {
    askAnything: '随便问——或用 /tool {…} 直接调用工具',
    typeOnceReady: '服务器就绪后，输入 /tool {"arg": value}',
    commands: '命令',
    hint: '↑↓ 选择 · Tab 选用 · Esc 隐藏 · 提示会打开其表单',
    command: '命令',
    stop: '停止',
    send: '发送',
  },
  chatLog: {
    label: '对话',
    askAnything: '随便问',
    modelCanUse: '模型（{{model}}）可以使用每个就绪服务器的工具；每次调用都由你批准。<code>{{example}}</code> 仍可直接调用工具。',
    callTool: '调用工具',
    typeBelow: '在下方输入 <code>{{example}}</code>，或在左侧选择一个工具来填写表单。',
    serverPicks: '当多个服务器提供同名工具时，用 <code>/server.tool</code> 或 <code>/server/tool</code> 指定服务器。',
    directMode: '直接模式。',
    addProvider: '添加模型服务',
  },
  shell: {
    openConfig: '打开配置文件',
    revealLogs: '显示日志',
    configFile: '配置文件',
    logsFolder: '日志文件夹',
    cannotOpen: '{{what}}（无法从浏览器中打开）：',
    copyPath: '复制路径',
    dismiss: '关闭',
  },
  debugBundle: {
    heading: '调试包',
    intro: '用于报告问题：一个 JSON 文件，包含配置（值已遮蔽）、版本、每个服务器的启动方式、其 stderr 末尾和协议跟踪。不包含机密。',
    exporting: '正在导出…',
    export: '导出调试包',
    written: '已写入（{{size}} KB）：<code>{{path}}</code>',
    failed: '无法导出：{{error}}',
  },
  appSettings: {
    saved: '已保存。',
    appearance: '外观',
    theme: '主题',
    themeSystem: '跟随系统',
    themeLight: '浅色',
    themeDark: '深色',
    envHeading: '服务器继承的环境变量',
    envIntro: '服务器只获得基本变量（HOME、PATH 等）、它自己的 <code>env</code> 以及这里列出的名称。值永不显示；此后启动（以及重启）的服务器会获得它们。',
    none: '无。',
    removeLabel: '移除 {{name}}',
    envInputLabel: '要允许的变量名',
    envPlaceholder: '例如 HTTPS_PROXY',
    allow: '允许',
    notVarName: '“{{name}}”不是变量名：只能包含字母、数字和 _，且不能以数字开头。',
    alreadyListed: '{{name}} 已在列表中。',
    supervisionHeading: '监管默认值',
    supervisionIntro: '留空的字段保持显示的默认值。新的限制在服务器（重新）启动时生效。',
    autoRestart: '服务器意外停止时自动重启',
    wholeMs: '{{label}}：以毫秒为单位的整数，留空则使用默认值。',
    wholeCount: '{{label}}：一个整数，留空则使用默认值。',
    useDefaults: '使用默认值',
    knob: {
      startTimeoutMs: '启动超时',
      requestTimeoutMs: '请求超时',
      restartBaseDelayMs: '首次重启延迟',
      restartMaxDelayMs: '最长重启延迟',
      crashLoopCount: '连续崩溃多少次后放弃',
      stableMs: '运行多久算作稳定',
      graceMs: '停止进程前的宽限时间',
      pingIntervalMs: '远程服务器 ping 间隔（0：从不）',
      pingTimeoutMs: 'Ping 超时',
    },
    rootsHeading: '默认根目录',
    rootsIntro: '服务器可以在其中工作的文件夹，适用于条目中没有自己 roots 的每个服务器（路径、~/ 路径或 file:// URI）。',
    rootInputLabel: '要添加为默认根目录的文件夹',
    rootPlaceholder: '例如 ~/projects',
    notRoot: '根目录是一个文件夹路径（绝对路径、~/…）或 file:// URI。',
    rootListed: '该文件夹已是默认根目录。',
  },
  secrets: {
    heading: '机密',
    intro: '在服务器的 env 或 headers 中以 <code>{{example}}</code> 使用机密。这里的值只能写入：之后不会再显示。',
    notKeychain: '机密没有保存在操作系统钥匙串中（{{backing}}）。',
    empty: '还没有保存任何机密。',
    stored: '已保存的机密',
    valueHidden: '值已隐藏',
    confirmDelete: '删除 {{name}}？',
    replaceEllipsis: '替换…',
    deleteLabel: '删除 {{name}}',
    formLabel: '添加或替换机密',
    name: '名称',
    value: '值',
    replace: '替换',
    badName: '名称：字母、数字、_ . -（以字母或 _ 开头），最多 128 个字符。',
    replacedMsg: '已替换 {{name}}。',
    storedMsg: '已保存 {{name}}。',
    deletedMsg: '已删除 {{name}}。',
  },
  serversScreen: {
    label: '服务器',
    view: '视图',
    modeList: '服务器',
    modeRaw: '原始 JSON',
    modeCatalogue: '目录',
    import: '导入…',
    exportAll: '全部导出',
    loadingEditor: '正在加载编辑器…',
    configured: '已配置的服务器',
    addServer: '添加服务器',
    paused: '配置文件第 {{line}} 行第 {{column}} 列有问题：{{message}}。在修复之前，这里暂停编辑服务器。',
    fixInRaw: '在原始编辑器中修复',
    empty: '还没有服务器。添加一个，或从其他 MCP 主机导入。',
    details: '服务器详情',
    pick: '选择一个服务器进行编辑，或添加一个。',
    explain: '这里的所有操作都会编辑服务器配置文件——注释和格式会保留，上一个版本会另存为 <code>.bak</code>。<strong>原始 JSON</strong> 视图直接编辑同一个文件。',
    enabledTitle: '已启用：点击停止并禁用',
    disabledTitle: '已禁用：点击启用',
    enableLabel: '启用 {{server}}',
    exportLabel: '导出 {{server}}',
    export: '导出',
    confirmRemoveLabel: '确认移除 {{server}}',
    confirmRemove: '从配置中移除 {{server}}？',
    removeLabel: '移除 {{server}}',
  },
  call: {
    state: {
      pending: '运行中…',
      ok: '完成',
      error: '出错',
      cancelled: '已取消',
    },
    typed: '输入的命令',
    fromForm: '通过表单调用',
    form: '表单 · {{args}}',
    couldNotCancel: ' 无法取消：{{error}}',
    cancelledDot: '已取消。',
    toolError: '工具错误',
    waitingFor: '正在等待 {{server}}…',
    cancelling: '正在取消…',
    elapsed: '已用时间',
    progress: '进度',
    valueOf: '{{value}} / {{total}}',
    working: '进行中',
    emptyResult: '（空结果）',
    outputSchema: '输出模式',
    schemaMismatch: '结构化内容与工具的 outputSchema 不符：{{error}}',
    ranAsTask: '作为任务 <code>{{taskId}}</code> 运行 · {{status}}',
    structured: '结构化内容',
    openLabel: '打开 {{name}}',
    open: '打开',
    imageAlt: '图片结果（{{mime}}）',
    audio: '音频结果（{{mime}}，{{size}} KiB）——此处不支持播放。',
  },
  tools: {
    none: '此服务器不提供工具。',
    count_one: '{{count}} 个工具',
    count_other: '{{count}} 个工具',
    listLabel: '{{server}} 的工具',
    taskOnly: '只能作为任务运行（io.modelcontextprotocol/tasks）',
    task: '任务',
    choose: '选择工具',
    placeholder: '工具…',
    stderrLines_one: '（{{count}} 行）',
    stderrLines_other: '（{{count}} 行）',
  },
  launch: {
    summary: '启动详情',
    from: '来自 {{source}}',
    source: {
      default: '默认',
      'allow-list': '允许列表',
      'server-env': '服务器 env',
    },
    sandboxUnavailable: '已要求沙箱，但没有可用的（{{reason}}）：未启动',
    noReason: '未给出原因',
    sandbox: '{{kind}}：系统只读，主目录隐藏，私有 /tmp；可读 {{read}}；可写 {{write}}；网络 {{network}}',
    on: '开',
    off: '关',
  },
  serverPage: {
    label: '服务器 {{server}}',
    gone: '服务器“{{server}}”已不在配置中。',
    tabs: {
      tools: '工具',
      resources: '资源',
      prompts: '提示',
      logs: '日志',
      trace: '跟踪',
    },
    offers: '{{server}}：提供的内容',
    back: '返回聊天',
    backButton: '← 聊天',
    switcher: '显示其他服务器',
    lastPing: '上次 ping 于 {{time}}',
    healthy: '健康',
    unhealthy: '不健康',
    pinging: '正在 ping…',
    ping: 'Ping',
    pingAt: '{{method}}，于 {{time}}',
    bundleTitle: '写入一个 JSON 文件，包含配置（值已遮蔽）、版本、启动信息、stderr 末尾和协议跟踪，用于报告问题',
    protocolEra: '协议版本（{{era}} 时代）',
    capabilities: '能力',
    bundleWritten: '调试包已写入（{{size}} KB）：<code>{{path}}</code>',
    bundleFailed: '无法导出调试包：{{error}}',
    instructions: '服务器的说明',
  },
  toolCard: {
    status: {
      'awaiting-approval': '需要批准',
      running: '运行中…',
      done: '完成',
      error: '出错',
      denied: '已拒绝',
      cancelled: '已取消',
    },
    decision: {
      'allow-once': '已允许一次',
      'always-allow': '始终允许（从现在起）',
      'auto-always': '始终允许',
      'auto-readonly': '自动允许（只读）',
      'auto-all': '自动允许（全部）',
      deny: '已被你拒绝',
      'auto-deny': '已拒绝（工具已关闭）',
    },
    noRunningCall: '主机上没有该 id 正在运行的调用（可能刚刚结束）；“停止”会结束整轮对话。',
    readOnly: '只读',
    runOn: '在 {{server}} 上运行 {{tool}}？',
    wantsToRun: '模型想用这些参数在 <strong>{{server}}</strong> 上运行 <strong>{{tool}}</strong>。',
    allowOnce: '允许一次',
    alwaysAllow: '始终允许此工具',
    deny: '拒绝',
  },
  message: {
    sentWith: '随消息发送',
    with: '附带',
    cut: '（已截断）',
    thinking: '思考中…',
    stopped: '已停止。',
  },
  dialog: {
    close: '关闭对话框',
  },
  toolForm: {
    formFor: '{{tool}} 的表单',
    close: '关闭表单',
    gone: '服务器“{{server}}”已不在配置中。',
    noLonger: '“{{server}}”已不再提供“{{tool}}”。',
    notReady: '“{{server}}”未就绪（{{status}}）。',
    argsJson: '参数（JSON 对象）',
    noArgs: '此工具不需要参数。',
    taskTitle: 'io.modelcontextprotocol/tasks：服务器在后台运行它；状态显示在卡片上',
    runAsTask: '作为任务运行',
    runsAsTask: '作为任务运行',
    call: '调用 {{tool}}',
    notSet: '（未设置）',
    choose: '请选择…',
    required: '必填',
    jsonValue: 'JSON 值',
  },
  providers: {
    title: '模型服务与审批',
    source: {
      settings: '在此保存',
      env: '来自环境变量',
      dotenv: '来自 .env',
      default: '默认',
    },
    heading: '模型服务',
    intro: '密钥由 Switchboard 保存（作为机密），只用于调用模型服务；之后不会再显示。<code>.env</code> 中的值也可以使用（见 <code>.env.example</code>）。',
    newMessagesUse: '新消息使用 <code>{{model}}</code>（{{source}}）。',
    approvals: '审批',
    beforeTool: '工具运行前',
    mode: {
      ask: '每次都询问',
      readonly: '只读工具（readOnlyHint）无需询问即可运行',
      all: '所有工具无需询问即可运行',
      none: '从不运行工具',
    },
    maxSteps: '每条消息最多的模型步骤数',
    alwaysAllowed: '始终允许：',
    askAgain: '重新询问',
    toolsHeading: '模型可以使用的工具',
    noServer: '还没有就绪的服务器。',
    ready: '就绪',
    notSetUp: '未设置',
    api: {
      chat: 'Chat Completions',
      messages: 'Messages API',
      responses: 'Responses API',
    },
    keyFrom: ' · 密钥{{source}}',
    noKey: ' · 无密钥（{{env}}）',
    replaceKey: '替换密钥',
    apiKey: 'API 密钥',
    apiKeyLabel: '{{provider}} API 密钥',
    baseUrl: 'Base URL（可选）',
    baseUrlLabel: '{{provider}} Base URL',
    removeKey: '移除密钥',
  },
  errors: {
    'invalid-argument': { generic: '参数无效：{{message}}' },
    'unknown-server': {
      generic: '配置中没有这个服务器。',
      server: '配置中没有名为“{{server}}”的服务器。',
    },
    'unknown-tool': {
      generic: '没有这个工具。',
      server: '服务器“{{server}}”没有工具 {{tools}}。',
      tool: '服务器“{{server}}”没有工具“{{tool}}”。',
    },
    'server-not-ready': {
      generic: '服务器未连接：{{message}}',
      server: '服务器“{{server}}”未连接。请启动它（或等它就绪）后重试。',
      'needs-login': '服务器“{{server}}”需要先登录。',
    },
    'tool-call-failed': {
      generic: '调用失败：{{message}}',
      tool: '调用 {{server}}/{{tool}} 失败：{{message}}',
      cancelled: '服务器取消了该任务：{{message}}',
    },
    cancelled: { generic: '已取消。' },
    'config-invalid': {
      generic: '配置有问题：{{message}}',
      position: '配置第 {{line}} 行第 {{column}} 列有问题：{{message}}',
    },
    'provider-error': { generic: '模型服务出错：{{message}}' },
    'not-configured': { generic: '尚未设置模型服务：请在 聊天 → 模型服务与审批 中添加。（{{message}}）' },
    'not-supported': {
      generic: '不可用：{{message}}',
      server: '服务器“{{server}}”不提供此功能：{{message}}',
    },
    'request-failed': {
      generic: '请求失败：{{message}}',
      server: '服务器“{{server}}”返回错误：{{message}}',
    },
    'needs-review': {
      generic: '此工具自被信任后已更改（或是新工具，或含隐藏文本）：请先审查。{{message}}',
      server: '服务器“{{server}}”的一个工具需要先审查。{{message}}',
    },
    internal: { generic: 'Switchboard 内部出错：{{message}}' },
    disconnected: { generic: '与主机的连接已断开：{{message}}' },
  },
  cli: {
    usage: `用法：switchboard [--config 文件] [--json] [--log-level 级别] [--trace 文件] [--approve 模式] <命令>

命令：
  list                         连接每个已启用的服务器；每个一行（名称、传输方式、状态、协议、工具数、错误）
  tools [SERVER]               每个就绪服务器（或指定服务器）的工具（已更改/新增/被标记的会注明；隐藏文本会解码显示）
  trust SERVER [TOOL…]         接受自被信任后已更改的工具（或指定工具）的当前定义
  call SERVER TOOL [ARGS_JSON] [--progress] [--task]
                               调用一个工具；成功退出码 0，结果为错误时 1，用法/配置错误时 2
                               （--progress：在 stderr 输出 "progress 2/4 message" 和任务状态行；--task：在工具允许时
                               作为任务运行；仅支持任务的工具总是作为任务运行）
  resources [SERVER]           每个就绪服务器（或指定服务器）的资源，然后是资源模板
  read SERVER URI              读取资源内容：文本输出到 stdout，二进制显示为 [blob MIME, N bytes]（--json：全部内容）
  prompts [SERVER]             每个就绪服务器（或指定服务器）的提示（含参数；[optional] 表示可选）
  prompt SERVER NAME [ARGS_JSON]
                               获取提示的消息，参数为字符串组成的 JSON 对象
  complete SERVER prompt|resource NAME_OR_TEMPLATE ARG VALUE [--context JSON]
                               提示参数或资源模板变量的补全，每行一个
                               （--context：已选定的其他参数，例如 '{"category": "fruit"}'）
  ping SERVER                  检查服务器是否在线：ping（旧版）或 server/discover（2026-07-28），并显示往返时间
  login SERVER [--no-browser]  用 OAuth 登录远程服务器：打印授权 URL（除非 --no-browser，否则在浏览器中打开），
                               在 127.0.0.1 上等待重定向；令牌作为机密保存并静默刷新。需要登录的服务器显示状态 needs-login
  logout SERVER                退出登录：在授权服务器支持时吊销令牌，并删除它们
  doctor [SERVER]              逐个服务器：解析后的命令、环境变量名、连接结果、协议、就绪耗时、stderr 末尾
  import SOURCE [--yes] [--move-secrets]
                               从 claude | cursor | vscode | cline | windsurf | inspector | 文件 添加服务器
                               （先显示预览；--yes 添加不冲突的项并跳过冲突项）
  export [SERVER…]             所有服务器（或指定服务器）的 Claude 兼容 JSON
  secret list | set NAME [VALUE] | delete NAME
                               \${secret:NAME} 的值（set 省略 VALUE 时从 stdin 读取）
  chat [--model provider:model] [--approve ask|all|readonly|none] "MESSAGE"
                               询问可以使用服务器工具的 LLM；回答流式输出到 stdout，工具调用和审批提示输出到 stderr
                               （ask：在终端上询问，无终端时拒绝；all：运行每个调用；readonly：运行 readOnlyHint 工具，
                               其他的询问；none：从不运行）
  registry search [TERM] [--registry URL] [--cursor C]
                               MCP Registry 中的服务器（默认 https://registry.modelcontextprotocol.io）
  registry add NAME [--yes] [--set KEY=VALUE…] [--name N] [--use npm|pypi|oci|remote] [--registry URL]
                               将 Registry 中的服务器添加为固定到确切版本的条目（npx -y pkg@V、uvx pkg==V、
                               docker run -i --rm IMAGE:V 或其远程 URL）；先打印完整命令，在终端上询问其变量
                               （机密变量存入机密存储）；已弃用/已删除的条目会被拒绝
  install FILE.mcpb [--yes] [--set KEY=VALUE…] [--name N]
                               安装 MCP Bundle：检查清单，解包到数据文件夹的 bundles/NAME/，询问 user_config
                               （敏感值作为机密保存）；带签名的包会被拒绝
  uninstall NAME               移除服务器条目（如果是 Bundle，还会删除其文件和它保存的机密）
  serve [--port N] [--host H] [--allow-remote] [--keep-token]
                               无界面模式（除非 --allow-remote，否则仅限本机回环）：在浏览器中使用应用；stdout 第一行是 URL（含令牌）。
                               不带 --port 时，若上次的端口空闲则沿用；--keep-token 也保留令牌
                               （以 0600 权限保存在数据文件夹中），这样重启后仍打开的标签页可以重新连接

选项：
  --config FILE   服务器配置（默认：SWITCHBOARD_CONFIG，否则 ~/.config/Switchboard/mcp.json）
  --json          在 stdout 上只输出一个 JSON 文档
  --log-level LEVEL
                  在 stderr 上以 "[server] level logger: data" 输出不低于 LEVEL 的服务器日志（并向每个服务器请求该级别）；
                  debug、info、notice、warning、error、critical、alert 或 emergency
  --trace FILE    每个服务器的每条 JSON-RPC 消息，以 JSON Lines 追加到 FILE
                  {"time","server","direction":"send"|"receive","message"}（机密已遮蔽）
  --approve all|ask|readonly|none
                  对每个会连接服务器的命令（call、read、prompt、chat…），服务器无需询问即可做的事：
                  采样（服务器请求运行模型）——all：允许并发送模型的回答；none：拒绝；
                  ask（默认；readonly 同）：在终端上通过 stderr 询问，无终端时拒绝。服务器请求的表单和链接
                  在终端上询问（逐个字段；链接仅在确认后打开，且仅限 https），无终端时拒绝。chat 的工具调用
                  也遵循它（readonly：运行 readOnlyHint 工具，其他的询问）
  -h, --help      显示此帮助

退出码：0 成功；1 请求或工具失败，或服务器未就绪；2 用法或配置错误。

语言：SWITCHBOARD_LANG=en|zh-CN（否则按 LC_ALL / LC_MESSAGES / LANG）。`,
    unknownCommand: '未知命令“{{command}}”',
    importNeedsSource: 'import 需要一个 SOURCE（claude、cursor、vscode、cline、windsurf、inspector 或一个文件）',
    secretNeeds: 'secret 需要 list、set NAME [VALUE] 或 delete NAME',
    callNeeds: 'call 需要 SERVER TOOL [ARGS_JSON]',
    needsValue: '{{flag}} 需要一个值',
    logLevelOneOf: '--log-level 必须是 {{levels}} 之一，收到的是 {{got}}',
    approveOneOf: '--approve 必须是 ask、all、readonly 或 none，收到的是 {{got}}',
    portRange: '--port 必须是 0-65535 之间的整数，收到的是 {{got}}',
    unknownOption: '未知选项 {{option}}',
  },
};
