import type { ToolIndex } from './tool-index';

/*
 * Queries a model might send to `search_tools`, each labelled with the tool (`server/tool`) that answers it, over
 * real servers' lists — server-everything ("everything"), server-filesystem ("filesystem") — and the catalogue
 * fixture (catalog-server.mjs: "dev", "office", "zh", each padded to 100 tools with look-alike neighbours).
 * Phrased as requests, not as the tools' names. Used by the recall test and `npm run bench`.
 */

export interface LabelledQuery {
  query: string;
  /** The right tool; any of several when more than one fits. */
  expect: string | string[];
}

export const labelledQueries: LabelledQuery[] = [
  // server-everything
  { query: 'echo back a message', expect: 'everything/echo' },
  { query: 'add two numbers', expect: 'everything/get-sum' },
  { query: 'environment variables of the server', expect: 'everything/get-env' },
  { query: 'small image logo', expect: 'everything/get-tiny-image' },
  { query: 'long running operation with progress', expect: 'everything/trigger-long-running-operation' },
  { query: 'compress a file with gzip', expect: 'everything/gzip-file-as-resource' },
  { query: 'turn logging on or off', expect: 'everything/toggle-simulated-logging' },
  { query: 'structured content output schema', expect: 'everything/get-structured-content' },
  { query: 'resource links', expect: 'everything/get-resource-links' },
  { query: 'deep research', expect: 'everything/simulate-research-query' },
  // server-filesystem
  { query: 'read a text file', expect: ['filesystem/read_text_file', 'filesystem/read_file'] },
  { query: 'read an image or audio file as base64', expect: 'filesystem/read_media_file' },
  { query: 'read several files at once', expect: 'filesystem/read_multiple_files' },
  { query: 'write content to a file', expect: 'filesystem/write_file' },
  { query: 'edit lines in a file', expect: 'filesystem/edit_file' },
  { query: 'make a new folder', expect: 'filesystem/create_directory' },
  { query: 'list files in a directory', expect: ['filesystem/list_directory', 'filesystem/list_directory_with_sizes'] },
  { query: 'directory listing with file sizes', expect: 'filesystem/list_directory_with_sizes' },
  { query: 'recursive tree of folders', expect: 'filesystem/directory_tree' },
  { query: 'rename a file', expect: 'filesystem/move_file' },
  { query: 'find files matching a glob pattern', expect: 'filesystem/search_files' },
  { query: 'file metadata size and modification time', expect: 'filesystem/get_file_info' },
  { query: 'which directories am I allowed to access', expect: 'filesystem/list_allowed_directories' },
  // catalogue: code hosting, CI, operations
  { query: 'open a bug report issue', expect: 'dev/create_issue' },
  { query: 'close an issue', expect: 'dev/close_issue' },
  { query: 'comment on a pull request', expect: 'dev/add_issue_comment' },
  { query: 'open a pull request', expect: 'dev/create_pull_request' },
  { query: 'squash merge a PR', expect: 'dev/merge_pull_request' },
  { query: 'ask someone to review my pull request', expect: 'dev/request_review' },
  { query: 'show the diff of a pull request', expect: 'dev/get_pull_request_diff' },
  { query: 'new git branch', expect: 'dev/create_branch' },
  { query: 'commit history of a branch', expect: 'dev/list_commits' },
  { query: 'search source code for a function', expect: 'dev/search_code' },
  { query: 'trigger github actions workflow', expect: 'dev/run_workflow' },
  { query: 'logs of the failed CI run', expect: 'dev/get_workflow_logs' },
  { query: 'run a SQL query on postgres', expect: 'dev/query_database' },
  { query: 'columns of a database table', expect: 'dev/describe_table' },
  { query: 'deploy to production', expect: 'dev/deploy_service' },
  { query: 'roll back the last deploy', expect: 'dev/rollback_deployment' },
  { query: 'page the on-call engineer', expect: 'dev/create_incident' },
  { query: 'check dependencies for vulnerabilities', expect: 'dev/scan_dependencies' },
  { query: 'delete a webhook', expect: 'dev/delete_webhook' },
  { query: 'cpu and memory metrics of a service', expect: 'dev/get_metrics' },
  // catalogue: office
  { query: 'send an email', expect: 'office/send_email' },
  { query: 'find emails from my boss', expect: 'office/search_emails' },
  { query: 'draft a reply to an email', expect: 'office/draft_reply' },
  { query: 'schedule a meeting', expect: ['office/create_event', 'office/find_free_time'] },
  { query: 'when is everyone free for a meeting', expect: 'office/find_free_time' },
  { query: 'cancel a calendar event', expect: 'office/cancel_event' },
  { query: 'share a document with a colleague', expect: 'office/share_file' },
  { query: 'upload a file to the drive', expect: 'office/upload_file' },
  { query: 'add a row to a spreadsheet', expect: 'office/append_spreadsheet_row' },
  { query: 'post a message in slack', expect: 'office/post_message' },
  { query: 'add a todo with a due date', expect: 'office/create_task' },
  { query: 'translate this text to French', expect: ['office/translate_text', 'zh/translate'] },
  { query: 'weather forecast for Paris', expect: ['office/get_weather', 'zh/weather_query'] },
  { query: 'phone number of a person', expect: 'office/get_contact' },
  { query: 'reserve a meeting room', expect: 'office/book_meeting_room' },
  { query: 'convert dollars to euros', expect: ['office/convert_currency', 'zh/exchange_rate'] },
  { query: 'summarise a pdf', expect: 'office/summarize_pdf' },
  { query: 'reimbursement for a receipt', expect: 'office/submit_expense' },
  { query: 'set an out of office vacation responder', expect: ['office/update_vacation_responder', 'office/create_vacation_responder'] },
  // catalogue: Chinese
  { query: '读取文件内容', expect: ['zh/read_file'] },
  { query: '删除文件', expect: 'zh/delete_file' },
  { query: '明天北京天气怎么样', expect: 'zh/weather_query' },
  { query: '翻译成英文', expect: 'zh/translate' },
  { query: '发微信给张三', expect: 'zh/send_wechat' },
  { query: '上海到杭州的高铁票', expect: 'zh/train_tickets' },
  { query: '开车路线', expect: 'zh/map_route' },
  { query: '股票价格', expect: 'zh/stock_quote' },
  { query: '人民币换美元', expect: 'zh/exchange_rate' },
  { query: '识别图片里的文字', expect: 'zh/ocr_image' },
  { query: '查快递', expect: 'zh/express_tracking' },
  { query: '删除发票', expect: 'zh/op_28' },
];

/** Share of queries whose expected tool is among the first `k` results; the misses, for a readable failure. */
export function recallAt(
  index: ToolIndex,
  k: number,
  queries: LabelledQuery[] = labelledQueries,
): { recall: number; misses: Array<{ query: string; got: string[] }> } {
  const misses: Array<{ query: string; got: string[] }> = [];
  for (const q of queries) {
    const expected = Array.isArray(q.expect) ? q.expect : [q.expect];
    const got = index.search(q.query, k).map((m) => `${m.server}/${m.tool}`);
    const hit = got.some((g) => expected.includes(g));
    if (!hit) misses.push({ query: q.query, got });
  }
  return { recall: (queries.length - misses.length) / queries.length, misses };
}
