import { spawn } from 'node:child_process';

export interface InitializeProbe {
  code: number | null;
  stderr: string;
  /** The first JSON-RPC message the server wrote on stdout, if any. */
  answer: unknown;
}

/** Starts a stdio server (an `mcpServers` entry), sends `initialize` (the 2025 era), and ends it (stdin closed). */
export function probeInitialize(entry: { command: string; args: string[] }, { waitExitMs = 0 } = {}): Promise<InitializeProbe> {
  return new Promise((resolve, reject) => {
    const child = spawn(entry.command, entry.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let answer: unknown;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (answer === undefined && newline >= 0) {
        answer = JSON.parse(stdout.slice(0, newline));
        if (waitExitMs === 0) child.stdin.end();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, answer });
    });
    child.stdin.on('error', () => undefined);
    const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'kit-test', version: '1.0.0' } };
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init })}\n`);
  });
}

/** `serverInfo.name` of an initialize answer. */
export const serverNameOf = (answer: unknown): unknown =>
  typeof answer === 'object' && answer !== null && 'result' in answer ? (answer.result as { serverInfo?: { name?: unknown } }).serverInfo?.name : undefined;
